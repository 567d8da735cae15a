// The outbound door of the EMS client (lib/ems/outbound.ts), through emsHttp as every EMS call uses
// it, over real HTTP on 127.0.0.1. Host names are answered by the door's replaceable resolver; the
// only addresses ever connected to are loopback ones, and only where the policy allows it.
import { gzipSync } from "node:zlib";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { BlockedDestinationError, RedirectRefusedError } from "@/lib/ems/errors";
import { emsHttp } from "@/lib/ems/http";
import { setHostResolver, type HostResolver } from "@/lib/ems/outbound";
import { allowPrivateOrigin, ensureEmsTestEnv, withEnv } from "./support/env";
import { json, startLocalServer, type LocalServer } from "./support/local-server";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});
beforeAll(() => ensureEmsTestEnv());

function get(url: string) {
  return emsHttp({ method: "GET", url, path: new URL(url).pathname, headers: { Accept: "application/json" }, requestId: "test", fingerprint: "test", retry: true });
}

async function server(answer: Parameters<typeof startLocalServer>[0]): Promise<LocalServer> {
  const started = await startLocalServer(answer);
  cleanups.push(() => started.close());
  return started;
}

/** Answers host names from `answers` (others: not found) and records every question. */
function resolveWith(answers: Record<string, string[]>): string[] {
  const asked: string[] = [];
  const resolver: HostResolver = async (host) => {
    asked.push(host);
    const addresses = answers[host];
    if (!addresses) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  const previous = setHostResolver(resolver);
  cleanups.push(() => setHostResolver(previous));
  return asked;
}

function allow(origin: string) {
  cleanups.push(allowPrivateOrigin(origin));
}

async function refusal(promise: Promise<unknown>): Promise<BlockedDestinationError> {
  const error = await promise.then(
    () => null,
    (rejected: unknown) => rejected,
  );
  expect(error).toBeInstanceOf(BlockedDestinationError);
  return error as BlockedDestinationError;
}

const LIST = { items: [{ id: 1, name: "internal" }], _meta: { totalCount: 1, pageCount: 1, currentPage: 1, perPage: 20 } };

describe("a listed private origin", () => {
  it("is reached end to end, on the address the door's resolver gave: one question, and no other DNS", async () => {
    const internal = await server(json(200, LIST));
    allow(`http://ems-internal.test:${internal.port}`);
    const asked = resolveWith({ "ems-internal.test": ["127.0.0.1"] });

    const response = await get(`http://ems-internal.test:${internal.port}/api/v1/events?page=1`);

    expect(response.status).toBe(200);
    expect(JSON.parse(response.bodyText)).toEqual(LIST);
    // The name exists nowhere but in the test's resolver: the connection went to what it answered.
    expect(asked).toEqual(["ems-internal.test"]);
    expect(internal.requests).toEqual([{ method: "GET", url: "/api/v1/events?page=1", host: `ems-internal.test:${internal.port}`, authorization: undefined }]);
  });

  it("reads a compressed answer", async () => {
    const internal = await server((request, response) => {
      expect(request.headers["accept-encoding"]).toMatch(/gzip/);
      response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      response.end(gzipSync(JSON.stringify(LIST)));
    });
    allow(internal.origin);
    expect(JSON.parse((await get(`${internal.origin}/api/v1/events`)).bodyText)).toEqual(LIST);
  });
});

describe("a destination the policy refuses", () => {
  it("is refused before anything is sent, and never retried: http://127.0.0.1:<port>/internal-admin unlisted", async () => {
    const internal = await server(json(200, LIST));
    const error = await refusal(get(`${internal.origin}/internal-admin/api/v1/oauth2/token`));
    expect(error.reason).toBe("http-not-allowed");
    expect(error.userMessage).toMatch(/^The portal will not connect to the saved base URL\. The base URL must use HTTPS/);
    expect(error.code).toBe("ems_blocked_destination");
    expect(internal.connections).toBe(0);
  });

  it.each([
    "2130706433",
    "0x7f000001",
    "0177.0.0.1",
    "127.1",
    "[::ffff:127.0.0.1]",
    "[::1]",
    "0.0.0.0",
    "100.64.0.1",
    "169.254.169.254",
    "10.1.2.3",
    "[fd00::1]",
    "[64:ff9b::7f00:1]",
  ])("refuses https://%s:<port>/ as a private address without connecting", async (host) => {
    const internal = await server(json(200, LIST));
    const asked = resolveWith({});
    const error = await refusal(get(`https://${host}:${internal.port}/api/v1/events`));
    expect(error.reason).toBe("private-address");
    expect(asked).toEqual([]);
    expect(internal.connections).toBe(0);
  });

  it("refuses a host name that resolves to loopback, asking once", async () => {
    const internal = await server(json(200, LIST));
    const asked = resolveWith({ "ems.example.com": ["127.0.0.1"] });
    const error = await refusal(get(`https://ems.example.com:${internal.port}/api/v1/events`));
    expect(error.reason).toBe("private-address");
    expect(error.detail).toContain("127.0.0.1 (loopback)");
    expect(asked).toEqual(["ems.example.com"]);
    expect(internal.connections).toBe(0);
  });

  it("refuses a host name with two A records when one of them is private", async () => {
    resolveWith({ "api.example.net": ["93.184.215.14", "10.0.0.7"] });
    const error = await refusal(get("https://api.example.net/api/v1/events"));
    expect(error.detail).toContain("10.0.0.7 (private)");
  });

  it("refuses metadata.google.internal without asking DNS, and any name that resolves to the metadata address", async () => {
    const asked = resolveWith({ "metadata.attacker.example.org": ["169.254.169.254"] });
    expect((await refusal(get("https://metadata.google.internal/computeMetadata/v1/"))).reason).toBe("private-address");
    expect(asked).toEqual([]);
    expect((await refusal(get("https://metadata.attacker.example.org/latest/meta-data/"))).reason).toBe("private-address");
  });

  it("keeps to EMS_ALLOWED_HOSTS when it is set", async () => {
    cleanups.push(withEnv({ EMS_ALLOWED_HOSTS: "api.swoogo.com,*.swoogo.com" }));
    const asked = resolveWith({});
    expect((await refusal(get("https://api.example.net/api/v1/events"))).reason).toBe("host-not-allowed");
    expect(asked).toEqual([]);
  });
});

describe("this portal's own sandbox", () => {
  it("is reached over plain HTTP on loopback at /sandbox only, and only while the sandbox is on", async () => {
    const portal = await server(json(200, LIST));
    cleanups.push(withEnv({ PORT: String(portal.port), NODE_ENV: "test", SANDBOX_ENABLED: undefined }));
    expect((await get(`${portal.origin}/sandbox/api/v1/events`)).status).toBe(200);
    expect((await refusal(get(`${portal.origin}/internal-admin/api/v1/events`))).reason).toBe("sandbox-path-only");

    cleanups.push(withEnv({ NODE_ENV: "production" }));
    expect((await refusal(get(`${portal.origin}/sandbox/api/v1/events`))).reason).toBe("http-not-allowed");
    expect(portal.requests).toHaveLength(1);
  });
});

describe("redirects", () => {
  it("are refused, and nothing is requested where they point (another local service, or the metadata address)", async () => {
    const target = await server(json(200, LIST));
    let location = `${target.origin}/internal-admin`;
    const allowed = await server((_request, response) => {
      response.writeHead(302, { location });
      response.end();
    });
    allow(allowed.origin);

    const first = await get(`${allowed.origin}/api/v1/events`).catch((error: unknown) => error);
    expect(first).toBeInstanceOf(RedirectRefusedError);
    expect((first as RedirectRefusedError).detail).toBe(`${allowed.origin} answered 302 to ${target.origin}`);
    expect(target.connections).toBe(0);

    location = "http://169.254.169.254/latest/meta-data/iam/security-credentials/";
    const second = await get(`${allowed.origin}/api/v1/events`).catch((error: unknown) => error);
    expect(second).toBeInstanceOf(RedirectRefusedError);
    expect((second as RedirectRefusedError).userMessage).toMatch(/redirect, which the portal does not follow/);
    // Each answered once: a refused redirect is not retried.
    expect(allowed.requests).toHaveLength(2);
  });
});
