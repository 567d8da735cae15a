import { NextResponse, type NextRequest } from "next/server";
import { safeCallbackUrl } from "@/lib/auth/callback-url";

/** next-auth's session cookie: `__Secure-` prefixed over HTTPS, split into `.0`, `.1`… when large. */
const SESSION_COOKIE = /^(__Secure-)?next-auth\.session-token(\.\d+)?$/;

function hasSessionCookie(req: NextRequest): boolean {
  return req.cookies.getAll().some((cookie) => SESSION_COOKIE.test(cookie.name) && cookie.value !== "");
}

/**
 * First gate only: a visitor without a session cookie goes to the sign-in page with a return
 * address. It does not decode the cookie: every page, data function and server action checks the
 * session against the database itself (getActor in lib/auth/session.ts, which decodes the JWT once
 * per request), so this file is no security boundary and need not pay for a second decode.
 */
export function proxy(req: NextRequest) {
  const path = req.nextUrl.pathname + req.nextUrl.search;
  if (!hasSessionCookie(req)) {
    const signIn = new URL(`${req.nextUrl.basePath}/sign-in`, req.nextUrl.origin);
    // The same rule as every other return address (a request path like `//evil.example` is no path
    // of ours).
    signIn.searchParams.append("callbackUrl", safeCallbackUrl(`${req.nextUrl.basePath}${path}`, { origin: req.nextUrl.origin }));
    return NextResponse.redirect(signIn);
  }
  // Pages read this to build the return address when the database says the session has ended.
  // Always set here, so a value the client sent never survives on the routes this file matches.
  const requestHeaders = new Headers(req.headers);
  requestHeaders.set("x-ems-path", path);
  return NextResponse.next({ request: { headers: requestHeaders } });
}

export const config = {
  // Everything but the public pages, next-auth's own routes, the health check, the embedded sandbox
  // (it has its own bearer auth), invitation links and static assets.
  matcher: ["/((?!sign-in|sign-up|invite|api/auth|api/health|sandbox|_next/static|_next/image|favicon.ico|icon.svg|robots.txt).*)"],
};
