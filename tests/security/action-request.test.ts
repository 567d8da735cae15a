// a cross-site write or a server action body Next.js cannot decode answered
// 500. proxy.ts now answers 403 / 400 / 413 before the page sees it (lib/security/action-request.ts);
// e2e/security-headers.spec.ts sends the same requests to a production build.
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { foreignOriginRefusal } from "@/lib/security/action-request";
import { BODY_LIMIT_BYTES } from "@/lib/security/request-body";
import { proxy } from "@/proxy";

const ACTION_ID = "7f".repeat(21);
const signedIn = { cookie: "next-auth.session-token=t", host: "portal.test" };

function post(path: string, body: BodyInit | null, headers: Record<string, string> = {}) {
  return new NextRequest(new URL(path, "http://portal.test"), { method: "POST", body, headers: { ...signedIn, ...headers } });
}

function multipart(fields: Record<string, string>): { body: string; type: string } {
  const boundary = "----test-boundary";
  const body = Object.entries(fields)
    .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join("");
  return { body: `${body}--${boundary}--\r\n`, type: `multipart/form-data; boundary=${boundary}` };
}

describe("cross-site writes", () => {
  it("refuses a write whose Origin is another site with 403, before the page runs the action", async () => {
    const response = await proxy(post("/team", "[]", { origin: "https://evil.example", "next-action": ACTION_ID, "content-type": "text/plain;charset=UTF-8" }));
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("sent from another site");
    expect(response.headers.get("x-middleware-next")).toBeNull();
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });

  it("refuses Origin null (a sandboxed frame) and a malformed Origin", () => {
    for (const origin of ["null", "not a url"]) expect(foreignOriginRefusal("POST", new Headers({ origin, host: "portal.test" }))?.status, origin).toBe(403);
  });

  it("compares with the host Next.js compares with: x-forwarded-host first, then host", () => {
    const headers = (extra: Record<string, string>) => new Headers({ origin: "https://portal.example.com", ...extra });
    expect(foreignOriginRefusal("POST", headers({ host: "portal.example.com" }))).toBeNull();
    expect(foreignOriginRefusal("POST", headers({ host: "10.0.0.5:3000", "x-forwarded-host": "portal.example.com" }))).toBeNull();
    expect(foreignOriginRefusal("POST", headers({ host: "portal.example.com", "x-forwarded-host": "other.example.com" }))?.status).toBe(403);
    expect(foreignOriginRefusal("POST", headers({ host: "portal.example.com:8443" }))?.status).toBe(403);
  });

  it("lets reads, same-origin writes and writes without Origin (not a browser) through", async () => {
    expect(foreignOriginRefusal("GET", new Headers({ origin: "https://evil.example", host: "portal.test" }))).toBeNull();
    expect((await proxy(post("/team", "[]", { origin: "http://portal.test", "next-action": ACTION_ID, "content-type": "text/plain;charset=UTF-8" }))).status).toBe(200);
    expect((await proxy(post("/team", "[]", { "next-action": ACTION_ID, "content-type": "text/plain;charset=UTF-8" }))).status).toBe(200);
  });

  it("refuses cross-site writes to next-auth's routes too, and leaves the sandbox (an API for servers) alone", async () => {
    const foreign = { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" };
    expect((await proxy(post("/api/auth/callback/credentials", "email=a", foreign))).status).toBe(403);
    expect((await proxy(post("/sandbox/api/v1/oauth2/token", "grant_type=client_credentials", foreign))).status).toBe(200);
  });
});

describe("server action bodies Next.js cannot decode", () => {
  it("answers 400 for a fetch action whose body is not the JSON of an argument list", async () => {
    for (const body of ["garbage", "{", '"x"', '{"a":1}']) {
      const response = await proxy(post("/settings", body, { "next-action": ACTION_ID, "content-type": "text/plain;charset=UTF-8" }));
      expect(response.status, body).toBe(400);
      expect(await response.text()).toContain("could not be read");
    }
  });

  it("answers 400 for a multipart body without a boundary, one that is not multipart, and a fetch action without its argument list", async () => {
    const noBoundary = await proxy(post("/settings", "x", { "content-type": "multipart/form-data" }));
    expect(noBoundary.status).toBe(400);
    const broken = await proxy(post("/settings", "this is not multipart", { "content-type": "multipart/form-data; boundary=zzz" }));
    expect(broken.status).toBe(400);
    const noRoot = multipart({ "1_email": "a@example.test" });
    expect((await proxy(post("/settings", noRoot.body, { "next-action": ACTION_ID, "content-type": noRoot.type }))).status).toBe(400);
    const badBound = multipart({ $ACTION_REF_1: "", "$ACTION_1:0": "{not json" });
    expect((await proxy(post("/settings", badBound.body, { "content-type": badBound.type }))).status).toBe(400);
  });

  it("answers 413 for a body over Next.js's 1 MB limit", async () => {
    const response = await proxy(
      post("/settings", "[]", { "next-action": ACTION_ID, "content-type": "text/plain;charset=UTF-8", "content-length": String(BODY_LIMIT_BYTES + 1) }),
    );
    expect(response.status).toBe(413);
  });

  it("lets what React writes through: the argument list, as text or in a multipart body, and a form posted without JavaScript", async () => {
    const asText = await proxy(post("/settings", '[{"status":"idle"},"$K1"]', { "next-action": ACTION_ID, "content-type": "text/plain;charset=UTF-8" }));
    expect(asText.status).toBe(200);
    expect(asText.headers.get("x-middleware-next")).toBe("1");
    const fetchAction = multipart({ "1_email": "a@example.test", "0": '[{"status":"idle"},"$K1"]' });
    expect((await proxy(post("/settings", fetchAction.body, { "next-action": ACTION_ID, "content-type": fetchAction.type }))).status).toBe(200);
    const noScript = multipart({ [`$ACTION_ID_${ACTION_ID}`]: "", email: "a@example.test" });
    expect((await proxy(post("/settings", noScript.body, { "content-type": noScript.type }))).status).toBe(200);
    const bound = multipart({ $ACTION_REF_1: "", "$ACTION_1:0": '{"id":"x","bound":null}', $ACTION_KEY: "k1" });
    expect((await proxy(post("/settings", bound.body, { "content-type": bound.type }))).status).toBe(200);
    // A sign-in form posted without JavaScript (URL-encoded, no action): the page renders again.
    expect((await proxy(post("/sign-in", "email=a%40example.test&password=x", { "content-type": "application/x-www-form-urlencoded" }))).status).toBe(200);
  });
});
