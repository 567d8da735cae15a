// The client's address (lib/auth/request-meta.ts + lib/auth/forwarded-for.ts): a client may send
// any X-Forwarded-For, so only the entries our own hops wrote count, counted from the right.
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendSocketPeer, forwardedForHookInstalled, installForwardedForHook } from "@/lib/auth/forwarded-for";
import { clientAddressSettings, clientIpFrom, normalizeAddress, type ClientAddressSettings } from "@/lib/auth/request-meta";

const edge: ClientAddressSettings = { trustedProxyCount: 0, onVercel: false };
const behind = (trustedProxyCount: number): ClientAddressSettings => ({ trustedProxyCount, onVercel: false });
const vercel: ClientAddressSettings = { trustedProxyCount: 0, onVercel: true };
const from = (headers: Record<string, string>) => (name: string) => headers[name];

describe("clientIpFrom", () => {
  it("as the edge (TRUSTED_PROXY_COUNT=0): the connection's address, whatever the client wrote to its left", () => {
    // "6.6.6.6" is what the client sent; the portal appended the socket's address.
    expect(clientIpFrom(from({ "x-forwarded-for": "6.6.6.6, 198.51.100.23" }), edge)).toBe("198.51.100.23");
    expect(clientIpFrom(from({ "x-forwarded-for": "6.6.6.6,7.7.7.7 , 198.51.100.23" }), edge)).toBe("198.51.100.23");
    expect(clientIpFrom(from({ "x-forwarded-for": "198.51.100.23" }), edge)).toBe("198.51.100.23");
  });

  it("behind N trusted proxies: the entry N places left of the connection's address", () => {
    // client -> load balancer (10.0.0.2) -> portal; the balancer appended the client's address.
    expect(clientIpFrom(from({ "x-forwarded-for": "6.6.6.6, 203.0.113.7, 10.0.0.2" }), behind(1))).toBe("203.0.113.7");
    // client -> CDN (192.0.2.50) -> nginx (10.0.0.3) -> portal.
    expect(clientIpFrom(from({ "x-forwarded-for": "6.6.6.6, 203.0.113.7, 192.0.2.50, 10.0.0.3" }), behind(2))).toBe("203.0.113.7");
    // Fewer entries than hops: all of them are ours, the leftmost is the furthest seen.
    expect(clientIpFrom(from({ "x-forwarded-for": "203.0.113.7, 10.0.0.2" }), behind(3))).toBe("203.0.113.7");
  });

  it("on Vercel: x-vercel-forwarded-for, then x-real-ip; never a client's X-Forwarded-For", () => {
    expect(clientIpFrom(from({ "x-vercel-forwarded-for": "203.0.113.9", "x-real-ip": "203.0.113.10", "x-forwarded-for": "6.6.6.6" }), vercel)).toBe("203.0.113.9");
    expect(clientIpFrom(from({ "x-real-ip": "203.0.113.10", "x-forwarded-for": "6.6.6.6" }), vercel)).toBe("203.0.113.10");
    expect(clientIpFrom(from({ "x-forwarded-for": "6.6.6.6" }), vercel)).toBe("unknown");
  });

  it("says unknown without headers, and for anything that is not an address (one shared bucket)", () => {
    expect(clientIpFrom(() => undefined, edge)).toBe("unknown");
    expect(clientIpFrom(from({ "x-forwarded-for": " , " }), edge)).toBe("unknown");
    expect(clientIpFrom(from({ "x-forwarded-for": "6.6.6.6, not-an-address" }), edge)).toBe("unknown");
    expect(clientIpFrom(from({ "x-forwarded-for": "_hidden, 10.0.0.2" }), behind(1))).toBe("unknown");
  });

  it("writes each address one way", () => {
    expect(normalizeAddress("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(normalizeAddress("[2001:DB8:0:0::1]:443")).toBe("2001:db8::1");
    expect(normalizeAddress("2001:0db8:0000:0000:0000:0000:0000:0001")).toBe("2001:db8::1");
    expect(normalizeAddress("192.0.2.1:5060")).toBe("192.0.2.1");
    expect(normalizeAddress("fe80::1%eth0")).toBe("fe80::1");
    expect(normalizeAddress("999.1.1.1")).toBeNull();
    expect(normalizeAddress("evil.example")).toBeNull();
  });

  it("reads TRUSTED_PROXY_COUNT and VERCEL through lib/env", () => {
    const env = process.env as Record<string, string | undefined>;
    const saved = { count: env.TRUSTED_PROXY_COUNT, vercel: env.VERCEL };
    try {
      delete env.TRUSTED_PROXY_COUNT;
      delete env.VERCEL;
      expect(clientAddressSettings()).toEqual({ trustedProxyCount: 0, onVercel: false });
      env.TRUSTED_PROXY_COUNT = "2";
      env.VERCEL = "1";
      expect(clientAddressSettings()).toEqual({ trustedProxyCount: 2, onVercel: true });
      env.TRUSTED_PROXY_COUNT = "-1";
      expect(() => clientAddressSettings()).toThrow(/TRUSTED_PROXY_COUNT must be a whole number from 0 to 20/);
    } finally {
      for (const [name, value] of [
        ["TRUSTED_PROXY_COUNT", saved.count],
        ["VERCEL", saved.vercel],
      ] as const) {
        if (value === undefined) delete env[name];
        else env[name] = value;
      }
    }
  });
});

describe("the server appends the connection's address (lib/auth/forwarded-for.ts)", () => {
  let server: http.Server;
  let port: number;
  let seen: string | undefined;

  beforeAll(async () => {
    delete process.env.VERCEL;
    installForwardedForHook();
    installForwardedForHook(); // once only, however often instrumentation runs
    // A plain Node server, as `next start` and the standalone server create theirs.
    server = http.createServer((req, res) => {
      seen = req.headers["x-forwarded-for"] as string | undefined;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function forwardedFor(headers: Record<string, string> = {}): Promise<string | undefined> {
    seen = undefined;
    await fetch(`http://127.0.0.1:${port}/`, { headers });
    return seen;
  }

  it("appends the peer to a client-sent X-Forwarded-For, so the client cannot choose its address", async () => {
    expect(forwardedForHookInstalled()).toBe(true);
    const header = await forwardedFor({ "x-forwarded-for": "6.6.6.6" });
    expect(header).toBe("6.6.6.6, 127.0.0.1");
    expect(clientIpFrom(from({ "x-forwarded-for": header! }), edge)).toBe("127.0.0.1");
    // Behind one proxy (here: this test playing it), the entry left of the peer is the client.
    expect(clientIpFrom(from({ "x-forwarded-for": header! }), behind(1))).toBe("6.6.6.6");
  });

  it("writes the peer alone when the client sent nothing (what Next would have filled in)", async () => {
    expect(await forwardedFor()).toBe("127.0.0.1");
  });

  it("appendSocketPeer joins repeated headers first", () => {
    const req = { socket: { remoteAddress: "::ffff:10.0.0.1" }, headers: { "x-forwarded-for": ["1.1.1.1", "2.2.2.2"] } } as unknown as http.IncomingMessage;
    appendSocketPeer(req);
    expect(req.headers["x-forwarded-for"]).toBe("1.1.1.1, 2.2.2.2, ::ffff:10.0.0.1");
    expect(clientIpFrom(from({ "x-forwarded-for": req.headers["x-forwarded-for"] as string }), edge)).toBe("10.0.0.1");
  });

  it("is needed: Next.js fills x-forwarded-for only when the request has none (re-check on a Next upgrade)", () => {
    // If Next ever appends the socket's address itself, this hook would add it twice and
    // TRUSTED_PROXY_COUNT would be off by one: this line is what the hook relies on.
    const source = readFileSync("node_modules/next/dist/server/base-server.js", "utf8");
    expect(source).toMatch(/req\.headers\['x-forwarded-for'\] \?\?= .*socket.*remoteAddress/);
  });
});
