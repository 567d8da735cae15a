// Return addresses after sign-in (lib/auth/callback-url.ts): a corpus of known open-redirect
// bypasses, each checked the way a browser would follow it, plus the encoding that keeps control
// and non-Latin-1 characters out of a Location header.
import { validateHeaderValue } from "node:http";
import { describe, expect, it } from "vitest";
import { safeCallbackUrl, sameOriginPath } from "@/lib/auth/callback-url";

const PORTAL = "https://portal.example";

/**
 * What a browser does with the address: WHATWG URL parsing against the page it is on (it drops
 * tabs and newlines, reads `\` as `/`). The address must stay on the portal, and be a valid
 * header value made of printable ASCII only.
 */
function expectStaysOnPortal(result: string) {
  expect(new URL(result, PORTAL).origin).toBe(PORTAL);
  expect(result).toMatch(/^\/(?![/\\])/);
  expect(result).toMatch(/^[\x21-\x7e]+$/);
  expect(() => validateHeaderValue("location", result)).not.toThrow();
}

// Each one leaves the site (or runs script) if it is used as it comes.
const BYPASSES: string[] = [
  "//evil.example",
  "///evil.example",
  "////evil.example/x",
  "/\\evil.example",
  "/\\\\evil.example",
  "\\\\evil.example",
  "\\/\\/evil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r\n/evil.example",
  "\t//evil.example",
  " //evil.example",
  "/\t\\evil.example",
  "/\\\t/evil.example",
  "/%09/evil.example",
  "/.//evil.example",
  "/a/..//evil.example",
  "/%2e%2e//evil.example",
  "https:evil.example",
  "https:/evil.example",
  "https:\\\\evil.example",
  "https://evil.example",
  "HTTPS://EVIL.EXAMPLE/x",
  "http://evil.example",
  "http://portal.example@evil.example/",
  "https://portal.example.evil.example/",
  "ftp://evil.example/",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  " javascript:alert(1)",
  "java\tscript:alert(1)",
  "java\nscript:alert(1)",
  "javascript://%0aalert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
  "%2f%2fevil.example",
  "%2F%2Fevil.example",
  "/%2f%2fevil.example",
  "/%5cevil.example",
  "/%5C%5Cevil.example",
  "%5C%5Cevil.example",
  "/\u0000/evil.example",
  "\u0001//evil.example",
];

describe("safeCallbackUrl: known open-redirect bypasses", () => {
  it.each(BYPASSES)("%j stays on the portal", (input) => {
    const result = safeCallbackUrl(input, { origin: PORTAL });
    expectStaysOnPortal(result);
    // Without the portal's origin, only the placeholder differs: the answer is still a path.
    expectStaysOnPortal(safeCallbackUrl(input));
  });

  it.each(BYPASSES)("%j, once URL-encoded as a query parameter and decoded again, stays on the portal", (input) => {
    // What the sign-in page receives after Next decodes `?callbackUrl=…`.
    const decoded = new URL(`${PORTAL}/sign-in?callbackUrl=${encodeURIComponent(input)}`).searchParams.get("callbackUrl")!;
    expectStaysOnPortal(safeCallbackUrl(decoded, { origin: PORTAL }));
  });

  it("turns scheme-relative, backslash and whitespace tricks into the fallback", () => {
    for (const input of [
      "//evil.example",
      "/\\evil.example",
      "/\t/evil.example",
      "/%09/evil.example".replace("%09", "\t"),
      "\\/\\/evil.example",
      "http:evil.example",
      "javascript:alert(1)",
    ]) {
      expect(safeCallbackUrl(input, { origin: PORTAL }), JSON.stringify(input)).toBe("/");
    }
  });
});

describe("safeCallbackUrl: addresses on the portal", () => {
  it.each([
    ["/events?page=2", "/events?page=2"],
    ["/webhook-groups?per-page=50&sort=-id", "/webhook-groups?per-page=50&sort=-id"],
    ["/account#sessions", "/account#sessions"],
    ["/invite/abc_DEF-123", "/invite/abc_DEF-123"],
    [`${PORTAL}/events?page=3`, "/events?page=3"],
    // Encoded slashes stay encoded in the path: no browser reads them as `//`.
    ["/%2f%2fevil.example", "/%2f%2fevil.example"],
    ["%2f%2fevil.example", "/%2f%2fevil.example"],
    // The portal's own scheme without slashes is a relative reference (WHATWG): still a path here.
    ["https:evil.example", "/evil.example"],
  ])("%j becomes %j", (input, expected) => {
    expect(safeCallbackUrl(input, { origin: PORTAL })).toBe(expected);
  });

  it("percent-encodes control and non-Latin-1 characters, so the Location header is valid", () => {
    expect(safeCallbackUrl("/événements?q=café", { origin: PORTAL })).toBe("/%C3%A9v%C3%A9nements?q=caf%C3%A9");
    expect(safeCallbackUrl("/日本語", { origin: PORTAL })).toBe("/%E6%97%A5%E6%9C%AC%E8%AA%9E");
    expect(safeCallbackUrl("/a\u0001b?c=\u007f", { origin: PORTAL })).toBe("/a%01b?c=%7F");
    expect(safeCallbackUrl("/a b?x=1 2", { origin: PORTAL })).toBe("/a%20b?x=1%202");
    for (const input of ["/\u20ac", "/\u0001", "/a\u0085b", "/\ud83d\ude00", "/x?y=\u2028"]) expectStaysOnPortal(safeCallbackUrl(input, { origin: PORTAL }));
  });

  it("never returns to the sign-in or sign-up page (a loop), however it is spelled", () => {
    for (const input of ["/sign-in", "/sign-in?callbackUrl=/x", "/sign-up", "/sign-up/", "/a/../sign-in", "/%2e%2e/sign-up", `${PORTAL}/sign-in`]) {
      expect(safeCallbackUrl(input, { origin: PORTAL }), input).toBe("/");
    }
    expect(safeCallbackUrl("/sign-in-help", { origin: PORTAL })).toBe("/sign-in-help");
  });

  it("falls back for nothing, an array's first bad value, or another fallback", () => {
    expect(safeCallbackUrl(undefined)).toBe("/");
    expect(safeCallbackUrl(null)).toBe("/");
    expect(safeCallbackUrl("")).toBe("/");
    expect(safeCallbackUrl(["//evil.example", "/events"])).toBe("/");
    expect(safeCallbackUrl(["/events", "//evil.example"])).toBe("/events");
    expect(safeCallbackUrl("//evil.example", { fallback: "/account" })).toBe("/account");
  });
});

describe("sameOriginPath (next-auth's redirect callback)", () => {
  it("keeps the sign-in page (signing out returns there) and refuses other origins", () => {
    expect(sameOriginPath("/sign-in", PORTAL)).toBe("/sign-in");
    expect(sameOriginPath(`${PORTAL}/views`, PORTAL)).toBe("/views");
    expect(sameOriginPath("http://portal.example/views", PORTAL)).toBeNull(); // another scheme is another origin
    expect(sameOriginPath("/\t/evil.example", PORTAL)).toBeNull();
    expect(sameOriginPath(42, PORTAL)).toBeNull();
    expect(sameOriginPath("/x", "not a url")).toBeNull();
  });
});
