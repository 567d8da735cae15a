import http from "node:http";
import { expect, test } from "@playwright/test";
import { E2E_BASE_URL, ROLE_STATE } from "./helpers/config";

// Issue 24, findings 4 and 5, against the production build.
//
// 4. The 1 MB limit read only Content-Length: a chunked body (no length) passed, Next.js buffered
//    up to 10 MB of it per anonymous request and answered 500, and a burst of them made
//    /api/health unresponsive. Every write's body is now counted as it is read (proxy.ts), and
//    Next.js's own copy of it is bounded (next.config.js).
// 5. A page's searchParams with a name every object inherits (`?toString=1`) answered 500.

const TWO_MB = 2 * 1024 * 1024;
const base = new URL(E2E_BASE_URL);

type Answer = { status: number; body: string; ms: number };

/**
 * A POST whose body is sent chunked (Transfer-Encoding: chunked, no Content-Length), 64 KiB at a
 * time, straight from Node's http client on loopback (a browser context would add a length).
 */
function postChunked(path: string, headers: Record<string, string>, body: Buffer): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: base.hostname, port: base.port, path, method: "POST", headers: { ...headers, "transfer-encoding": "chunked" }, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), ms: performance.now() - started }));
      },
    );
    // A server that answers before reading everything may close the connection under the upload.
    request.on("error", reject);
    request.setTimeout(30_000, () => request.destroy(new Error(`${path}: no answer within 30 s`)));
    for (let offset = 0; offset < body.length; offset += 64 * 1024) request.write(body.subarray(offset, offset + 64 * 1024));
    request.end();
  });
}

function getHealth(): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.get({ host: base.hostname, port: base.port, path: "/api/health", agent: false }, (response) => {
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: "", ms: performance.now() - started }));
    });
    request.on("error", reject);
    request.setTimeout(30_000, () => request.destroy(new Error("/api/health: no answer within 30 s")));
  });
}

function multipartWith(field: string, size: number): { body: Buffer; type: string } {
  const boundary = "----request-limits";
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { body: Buffer.concat([head, Buffer.alloc(size, 0x61), tail]), type: `multipart/form-data; boundary=${boundary}` };
}

test.describe("finding 4: request bodies are limited by the bytes read, whatever the headers say", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("a chunked 2 MB body with no Content-Length answers 413 quickly, to a server action and to route handlers", async ({ request }) => {
    // The sign-up form is a server action anyone may call: the anonymous case of the finding.
    const html = await (await request.get("/sign-up")).text();
    const actionId = /\$ACTION_ID_([0-9a-f]{40,})/.exec(html)?.[1] ?? /&quot;id&quot;:&quot;([0-9a-f]{40,})&quot;/.exec(html)?.[1];
    expect(actionId, "a server action id on /sign-up").toBeTruthy();
    const origin = base.origin;
    const form = multipartWith("name", TWO_MB);
    const cases: [string, string, Record<string, string>, Buffer][] = [
      [
        "fetch action (text)",
        "/sign-up",
        { origin, "next-action": actionId!, "content-type": "text/plain;charset=UTF-8" },
        Buffer.concat([Buffer.from('["'), Buffer.alloc(TWO_MB, 0x61), Buffer.from('"]')]),
      ],
      [
        "form without JavaScript (multipart)",
        "/sign-up",
        { origin, "content-type": form.type },
        Buffer.concat([Buffer.from(`--${form.type.split("boundary=")[1]}\r\nContent-Disposition: form-data; name="$ACTION_ID_${actionId}"\r\n\r\n\r\n`), form.body]),
      ],
      [
        "next-auth's route",
        "/api/auth/callback/credentials",
        { origin, "content-type": "application/x-www-form-urlencoded" },
        Buffer.concat([Buffer.from("email="), Buffer.alloc(TWO_MB, 0x61)]),
      ],
      ["the sandbox's route", "/sandbox/api/v1/oauth2/token", { "content-type": "application/x-www-form-urlencoded" }, Buffer.alloc(TWO_MB, 0x61)],
      ["a route with no body handler", "/api/health", { origin, "content-type": "application/json" }, Buffer.alloc(TWO_MB, 0x20)],
    ];
    for (const [what, path, headers, body] of cases) {
      const answer = await postChunked(path, headers, body);
      test.info().annotations.push({ type: "time to 413", description: `${what}: ${answer.ms.toFixed(0)} ms` });
      expect(answer.status, what).toBe(413);
      expect(answer.body, what).toContain("too large");
      expect(answer.ms, what).toBeLessThan(2_000);
    }
  });

  test("/api/health keeps answering during and after a burst of 40 such requests", async () => {
    const html = await (await fetch(`${E2E_BASE_URL}/sign-up`)).text();
    const actionId = /\$ACTION_ID_([0-9a-f]{40,})/.exec(html)?.[1] ?? /&quot;id&quot;:&quot;([0-9a-f]{40,})&quot;/.exec(html)?.[1];
    const body = Buffer.concat([Buffer.from('["'), Buffer.alloc(TWO_MB, 0x61), Buffer.from('"]')]);
    const headers = { origin: base.origin, "next-action": actionId!, "content-type": "text/plain;charset=UTF-8" };

    let bursting = true;
    const healthLatencies: number[] = [];
    const healthStatuses: number[] = [];
    const poll = (async () => {
      // Bounded: at most 200 checks, 50 ms apart, while the burst lasts.
      for (let i = 0; i < 200 && bursting; i++) {
        const answer = await getHealth();
        healthLatencies.push(answer.ms);
        healthStatuses.push(answer.status);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const started = performance.now();
    const burst = await Promise.all(Array.from({ length: 40 }, () => postChunked("/sign-up", headers, body)));
    const burstMs = performance.now() - started;
    bursting = false;
    await poll;
    const after = await getHealth();

    const maxHealth = Math.max(...healthLatencies);
    test.info().annotations.push({
      type: "burst",
      description: `40 × 2 MB chunked in ${burstMs.toFixed(0)} ms; slowest 413 ${Math.max(...burst.map((a) => a.ms)).toFixed(0)} ms; /api/health ${healthLatencies.length} checks during, slowest ${maxHealth.toFixed(0)} ms; after ${after.ms.toFixed(0)} ms`,
    });
    expect(burst.map((answer) => answer.status)).toEqual(Array(40).fill(413));
    expect(healthStatuses.length).toBeGreaterThan(0);
    expect(healthStatuses.every((status) => status === 200)).toBe(true);
    expect(maxHealth).toBeLessThan(3_000);
    expect(after.status).toBe(200);
    expect(after.ms).toBeLessThan(1_000);
  });
});

test.describe("finding 5: a parameter named like what every object inherits is an unknown parameter, not a 500", () => {
  const NAMES = ["toString", "constructor", "valueOf", "hasOwnProperty", "__proto__"];

  test.describe("signed in", () => {
    test.use({ storageState: ROLE_STATE.lister });

    test("every portal page that reads its address", async ({ request }) => {
      const groups = await (await request.get("/webhook-groups")).text();
      const groupId = /href="\/webhook-groups\/(\d+)/.exec(groups)?.[1];
      expect(groupId, "a group link on /webhook-groups").toBeTruthy();
      const pages = ["/webhook-groups", "/events", "/changes", "/coverage", "/health", "/audit", "/team", "/views/new", `/webhook-groups/${groupId}`];
      for (const path of pages) {
        for (const name of NAMES) {
          for (const query of [`${name}=1`, `${name}=1&${name}=2`]) {
            const response = await request.get(`${path}?${query}`, { maxRedirects: 0 });
            const body = await response.text();
            expect(response.status(), `${path}?${query}`).toBe(200);
            expect(body, `${path}?${query}`).not.toContain("Something went wrong");
          }
        }
      }
    });
  });

  test("the sign-in and sign-up pages, signed out", async ({ playwright }) => {
    const request = await playwright.request.newContext({ baseURL: E2E_BASE_URL, storageState: { cookies: [], origins: [] } });
    for (const path of ["/sign-in", "/sign-up"]) {
      for (const name of NAMES) {
        const response = await request.get(`${path}?${name}=1&${name}=2`, { maxRedirects: 0 });
        expect(response.status(), `${path}?${name}`).toBe(200);
      }
    }
    await request.dispose();
  });
});

test.describe("issue 34: a control character in any parameter of a page's address is not a 500", () => {
  test.use({ storageState: ROLE_STATE.lister });

  // PostgreSQL refuses a NUL in a text value: `/plans?q=%00` answered 500. The one parser of a
  // page's address (lib/page-search-params.ts) now hands on a space; each query also comes repeated.
  test("every portal page that reads its address, each of its parameters with %00", async ({ request }) => {
    const groups = await (await request.get("/webhook-groups")).text();
    const groupId = /href="\/webhook-groups\/(\d+)/.exec(groups)?.[1];
    expect(groupId, "a group link on /webhook-groups").toBeTruthy();
    const filter = encodeURIComponent("name=*contains*a\u0000b");
    const queries: [string, string][] = [
      ["/plans", "q=%00&status=%00&mine=%00&page=%00"],
      ["/plans/new", `resource=webhooks&filter=${filter}&filter=id%3E1&ids=1%002`],
      ["/plans/new", "fix=%00&key=%00"],
      ["/webhooks", `filter=${filter}&ids=%00`],
      ["/webhook-groups", `filter=${filter}`],
      ["/events", `filter=${filter}`],
      ["/changes", "person=%00&field=%00&group=%00"],
      ["/coverage", "q=%00&cell=%00"],
      ["/health", "q=%00&host=%00&rule=%00"],
      ["/audit", "person=%00&action=%00"],
      ["/views", "page=%00"],
      ["/views/new", `page=webhooks&query=${encodeURIComponent(`filter=${filter}`)}`],
      ["/webhooks/new", "group=%00"],
      [`/webhook-groups/${groupId}`, "asOf=%00"],
      ["/team", "joined=%00"],
    ];
    for (const [path, query] of queries) {
      for (const search of [query, `${query}&${query}`]) {
        // A listing sends an address it cleaned to its canonical one (proxy.ts): followed.
        const response = await request.get(`${path}?${search}`);
        expect(response.status(), `${path}?${search}`).toBe(200);
        expect(await response.text(), `${path}?${search}`).not.toContain("Something went wrong");
      }
    }
  });
});
