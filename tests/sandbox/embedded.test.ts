import { afterEach, describe, expect, it, vi } from "vitest";
import * as route from "@/app/sandbox/[...path]/route";
import { ADMIN_SECRET_HEADER } from "@/lib/sandbox/api/admin";
import { basicAuthorizationHeader } from "@/lib/sandbox/core/basic-credentials";
import { DEMO_CREDENTIALS } from "@/lib/sandbox/demo-credentials";

/** The Next route handler, called with real Web Requests (no Next server needed for this part). */
const base = "http://localhost:3000/sandbox";

afterEach(() => {
  vi.unstubAllEnvs();
});

async function token(): Promise<string> {
  const response = await route.POST(
    new Request(`${base}/api/v1/oauth2/token`, {
      method: "POST",
      headers: {
        authorization: basicAuthorizationHeader(DEMO_CREDENTIALS.consumerKey, DEMO_CREDENTIALS.consumerSecret),
        "content-type": "application/x-www-form-urlencoded;charset=UTF-8",
      },
      body: "grant_type=client_credentials",
    }),
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

describe("app/sandbox/[...path]/route.ts", () => {
  it("serves the contract under /sandbox, with links that keep the prefix", async () => {
    expect(route.dynamic).toBe("force-dynamic");
    const response = await route.GET(new Request(`${base}/api/v1/webhook-groups.json?per-page=5`, { headers: { authorization: `Bearer ${await token()}` } }));
    expect(response.status).toBe(200);
    expect(response.headers.get("x-pagination-total-count")).toBe("140");
    const body = (await response.json()) as { items: unknown[]; _links: { next: { href: string } } };
    expect(body.items).toHaveLength(5);
    expect(body._links.next.href).toBe(`${base}/api/v1/webhook-groups.json?page=2&per-page=5`);
  });

  it("takes writes: PUT and DELETE reach the sandbox, and a delete's 204 has no body", async () => {
    const authorization = `Bearer ${await token()}`;
    const form = { authorization, "content-type": "application/x-www-form-urlencoded;charset=UTF-8" };
    const created = await route.POST(new Request(`${base}/api/v1/webhook-groups/create`, { method: "POST", headers: form, body: "name=Embedded%20write" }));
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const updated = await route.PUT(
      new Request(`${base}/api/v1/webhook-groups/update/${id}`, { method: "PUT", headers: form, body: "notification_emails[]=ops%40example.com" }),
    );
    expect(await updated.json()).toMatchObject({ id, name: "Embedded write", notification_emails: ["ops@example.com"], updated_by: "API (ems_demo_key)" });
    const deleted = await route.DELETE(new Request(`${base}/api/v1/webhook-groups/${id}`, { method: "DELETE", headers: { authorization } }));
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
    expect((await route.GET(new Request(`${base}/api/v1/webhook-groups/${id}`, { headers: { authorization } }))).status).toBe(404);
  });

  it("keeps one sandbox per process, so state survives between requests", async () => {
    const first = await token();
    const second = await token();
    expect(first).not.toBe(second);
    const again = await route.GET(new Request(`${base}/api/v1/events`, { headers: { authorization: `Bearer ${first}` } }));
    expect(again.status).toBe(200);
  });

  // Issue 24, finding 4: the route read any body whole (request.text()), however large.
  it("refuses a body past the sandbox's 64 KiB as it reads it, chunked or not, without reading the rest", async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= 2 * 1024 * 1024) return controller.close();
        pulled += 16 * 1024;
        controller.enqueue(new Uint8Array(16 * 1024).fill(0x61));
      },
    });
    const response = await route.POST(new Request(`${base}/api/v1/oauth2/token`, { method: "POST", body, duplex: "half" } as RequestInit & { duplex: "half" }));
    expect(response.status).toBe(413);
    expect(((await response.json()) as { message: string }).message).toContain("limited to 65536 bytes");
    expect(pulled).toBeLessThan(256 * 1024);
  });

  it("answers 405 and 404 like the standalone server", async () => {
    expect((await route.GET(new Request(`${base}/api/v1/oauth2/token`))).status).toBe(405);
    expect((await route.GET(new Request(`${base}/api/v1/unknown`))).status).toBe(404);
  });

  it("is a plain 404 everywhere, admin included, in production unless SANDBOX_ENABLED=true", async () => {
    vi.stubEnv("NODE_ENV", "production");
    vi.stubEnv("SANDBOX_ENABLED", "");
    for (const path of ["/api/v1/events", "/api/v1/openapi.json", "/__admin/stats"]) {
      const response = await route.GET(new Request(`${base}${path}`, { headers: { [ADMIN_SECRET_HEADER]: "x" } }));
      expect(response.status).toBe(404);
      expect(await response.text()).toBe("Not Found");
    }
    vi.stubEnv("SANDBOX_ENABLED", "true");
    // (and a signing secret of its own: lib/env.ts refuses the development default in production)
    vi.stubEnv("SANDBOX_SIGNING_SECRET", "e".repeat(43));
    expect((await route.GET(new Request(`${base}/api/v1/openapi.json`))).status).toBe(200);
  });
});
