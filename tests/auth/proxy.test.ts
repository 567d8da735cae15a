// proxy.ts: the first gate. It only looks for a session cookie (the session itself is verified
// against the database by every page and action), and it always writes the return address itself.
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { proxy } from "@/proxy";

function request(path: string, headers: Record<string, string> = {}) {
  return new NextRequest(new URL(path, "http://portal.test"), { headers });
}

describe("proxy", () => {
  it("sends a visitor without a session cookie to sign in, with the page as the return address", async () => {
    const response = await proxy(request("/webhook-groups?per-page=50&sort=-id"));
    expect(response.status).toBe(307);
    const location = new URL(response.headers.get("location")!);
    expect(location.pathname).toBe("/sign-in");
    expect(location.searchParams.get("callbackUrl")).toBe("/webhook-groups?per-page=50&sort=-id");
    expect(response.headers.get("location")).toContain("callbackUrl=%2Fwebhook-groups%3Fper-page%3D50%26sort%3D-id");
  });

  it("builds the return address with the one rule: a path that is not the portal's becomes /", async () => {
    for (const path of ["//evil.example/x", "/%09/evil.example", "/\\evil.example"]) {
      const response = await proxy(request(`http://portal.test${path}`));
      const callbackUrl = new URL(response.headers.get("location")!).searchParams.get("callbackUrl")!;
      expect(new URL(callbackUrl, "http://portal.test").origin, path).toBe("http://portal.test");
      expect(callbackUrl, path).toMatch(/^\/(?![/\\])/);
    }
    const unicode = await proxy(request("http://portal.test/événements?q=café"));
    expect(new URL(unicode.headers.get("location")!).searchParams.get("callbackUrl")).toBe("/%C3%A9v%C3%A9nements?q=caf%C3%A9");
  });

  it("lets the cron routes through without a session cookie (they check CRON_SECRET themselves), and nothing that only starts like them", async () => {
    const cron = await proxy(request("/api/cron/retention", { authorization: "Bearer x" }));
    expect(cron.status).toBe(200);
    expect(cron.headers.get("x-middleware-next")).toBe("1");
    expect((await proxy(request("/api/cronjobs"))).status).toBe(307);
  });

  // Issue 24, finding 6: the public paths matched as prefixes of the path, not whole segments.
  it("opens only whole public path segments: /api/health-findings is not /api/health, /sign-inx is not /sign-in", async () => {
    for (const path of [
      "/api/health",
      "/api/health/",
      "/api/metrics",
      "/sign-in",
      "/sign-up",
      "/invite/abc",
      "/api/auth/session",
      "/sandbox",
      "/sandbox/api/v1/events",
    ]) {
      expect((await proxy(request(path))).status, path).toBe(200);
    }
    for (const path of [
      "/api/health-findings",
      "/api/healthz",
      "/api/metricsx",
      "/sign-inx",
      "/sign-up-now",
      "/invites",
      "/api/authx",
      "/sandboxx",
      "/sandbox-x/api",
      "/api/cron/",
    ]) {
      const response = await proxy(request(path));
      expect(response.status, path).toBe(307);
      expect(new URL(response.headers.get("location")!).pathname, path).toBe("/sign-in");
    }
  });

  it("checks the Origin of a write to a path that only starts like /sandbox; the sandbox itself is exempt", async () => {
    const foreign = { origin: "https://evil.example", cookie: "next-auth.session-token=t", "content-type": "application/x-www-form-urlencoded" };
    const post = (path: string) => new NextRequest(new URL(path, "http://portal.test"), { method: "POST", body: "a=1", headers: foreign });
    for (const path of ["/sandboxx", "/sandbox-x", "/sandbox-x/api/v1/oauth2/token", "/sandbox.json"]) expect((await proxy(post(path))).status, path).toBe(403);
    expect((await proxy(post("/sandbox/api/v1/oauth2/token"))).status).toBe(200);
    expect((await proxy(post("/sandbox"))).status).toBe(200);
  });

  it("ignores other cookies and an empty session cookie", async () => {
    expect((await proxy(request("/views", { cookie: "next-auth.csrf-token=abc; theme=dark" }))).status).toBe(307);
    expect((await proxy(request("/views", { cookie: "next-auth.session-token=" }))).status).toBe(307);
  });

  it("lets a request with a session cookie through without decoding it (getActor does, once)", async () => {
    for (const cookie of ["next-auth.session-token=not-even-a-jwt", "__Secure-next-auth.session-token=x", "next-auth.session-token.0=part"]) {
      const response = await proxy(request("/views", { cookie }));
      expect(response.status, cookie).toBe(200);
      expect(response.headers.get("x-middleware-next")).toBe("1");
    }
  });

  it("overwrites an x-ems-path the client sent with the path it saw", async () => {
    const response = await proxy(request("/events?page=2", { cookie: "next-auth.session-token=t", "x-ems-path": "//evil.example" }));
    // NextResponse.next({ request: { headers } }) hands the rewritten request headers on like this:
    expect(response.headers.get("x-middleware-request-x-ems-path")).toBe("/events?page=2");
    expect(response.headers.get("x-middleware-override-headers")).toContain("x-ems-path");
  });

  it("sends a listing document at a long address (a submitted options form) to its canonical one, before rendering", async () => {
    const session = { cookie: "next-auth.session-token=t" };
    const long = "/events?fields=id,name,status,start_date,end_date,timezone&per-page=50&ids=9%0A3&searchCondition=and";
    const response = await proxy(request(long, session));
    expect(response.status).toBe(307);
    expect(response.headers.get("location")).toBe("http://portal.test/events?ids=9%2C3&per-page=50");
    expect(response.headers.get("content-security-policy")).toBeTruthy();

    // The canonical address itself, a client navigation (the page redirects those itself), a write,
    // an address with something ignored (its notice would be lost) and another page pass through.
    for (const [path, headers] of [
      ["/events?ids=9%2C3&per-page=50", session],
      [long, { ...session, rsc: "1" }],
      ["/events?per-page=7&fields=id&fields=name", session],
      ["/events/12?per-page=20", session],
    ] as const) {
      expect((await proxy(request(path, headers))).headers.get("x-middleware-next"), path).toBe("1");
    }
    const post = await proxy(new NextRequest(new URL(long, "http://portal.test"), { method: "POST", headers: { ...session, "content-type": "text/plain" } }));
    expect(post.status).not.toBe(307);

    // Signed out: sign-in first, with the address as asked for.
    const signedOut = await proxy(request(long));
    expect(new URL(signedOut.headers.get("location")!).pathname).toBe("/sign-in");
  });
});
