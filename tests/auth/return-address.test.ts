// Every place that sends a browser somewhere after sign-in uses the one rule of
// lib/auth/callback-url.ts: the sign-in and sign-up pages (a signed-in visitor is redirected at
// once), next-auth's redirect callback, and the proxy (tests/auth/proxy.test.ts);
// requireActor's redirect is in tests/auth/session.db.test.ts.
import { validateHeaderValue } from "node:http";
import { getURLFromRedirectError } from "next/dist/client/components/redirect";
import { isRedirectError } from "next/dist/client/components/redirect-error";
import { describe, expect, it, vi } from "vitest";

process.env.NEXTAUTH_SECRET ||= "a test secret of at least thirty-two characters";

// A signed-in visitor: the pages redirect straight to the return address.
vi.mock("@/lib/auth/session", () => ({
  getActor: async () => ({ userId: "u1", email: "a@example.test", name: "A", sessionId: "s1", teamId: "t1", teamName: "T", role: "OWNER" }),
}));

const { default: SignInPage } = await import("@/app/(auth)/sign-in/page");
const { default: SignUpPage } = await import("@/app/(auth)/sign-up/page");
const { authOptions } = await import("@/lib/auth/options");

async function redirectOf(render: Promise<unknown>): Promise<string> {
  try {
    await render;
  } catch (error) {
    if (isRedirectError(error)) return getURLFromRedirectError(error);
    throw error;
  }
  throw new Error("expected a redirect");
}

const PORTAL = "http://localhost:3000";

// Values of `callbackUrl` as the page receives them (Next has decoded the query already).
const HOSTILE = ["/\t/evil.example", "/\n/evil.example", "/\\evil.example", "//evil.example", "https://evil.example", "javascript:alert(1)"];
const UNENCODED = ["/a\u0001b", "/a\nb", "/日本語", "/€?q=\u2028", "/x\r\nSet-Cookie: a=b"];

describe("a signed-in visitor on /sign-in?callbackUrl=… (and /sign-up)", () => {
  it.each([...HOSTILE, ...UNENCODED])("%j: redirected on the portal, with a Location header Node accepts", async (callbackUrl) => {
    for (const page of [SignInPage, SignUpPage]) {
      const location = await redirectOf(page({ searchParams: Promise.resolve({ callbackUrl }) }));
      // Node throws ERR_INVALID_CHAR here for a control or non-Latin-1 character: the 500 of the finding.
      expect(() => validateHeaderValue("location", location)).not.toThrow();
      expect(location).toMatch(/^\/(?![/\\])[\x21-\x7e]*$/);
      expect(new URL(location, PORTAL).origin).toBe(PORTAL);
    }
  });

  it("keeps an ordinary return address, encoded", async () => {
    expect(await redirectOf(SignInPage({ searchParams: Promise.resolve({ callbackUrl: "/events?page=2" }) }))).toBe("/events?page=2");
    expect(await redirectOf(SignInPage({ searchParams: Promise.resolve({ callbackUrl: "/日本語" }) }))).toBe("/%E6%97%A5%E6%9C%AC%E8%AA%9E");
  });
});

describe("next-auth's redirect callback", () => {
  const redirect = (url: string) => authOptions.callbacks!.redirect!({ url, baseUrl: PORTAL });

  it.each(HOSTILE)("%j goes to the portal's root", async (url) => {
    expect(await redirect(url)).toBe(PORTAL);
  });

  it("keeps paths and absolute URLs on the portal, the sign-in page included (signing out lands there)", async () => {
    expect(await redirect("/events?page=2")).toBe(`${PORTAL}/events?page=2`);
    expect(await redirect(`${PORTAL}/views`)).toBe(`${PORTAL}/views`);
    expect(await redirect("/sign-in")).toBe(`${PORTAL}/sign-in`);
    expect(await redirect("/日本語")).toBe(`${PORTAL}/%E6%97%A5%E6%9C%AC%E8%AA%9E`);
  });
});
