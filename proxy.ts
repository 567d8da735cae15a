import { NextResponse } from "next/server";
import { withAuth } from "next-auth/middleware";

/**
 * First gate only: signed-out visitors go to the sign-in page with a return address. It checks the
 * cookie's signature, nothing more; every page, data function and server action checks the session
 * against the database itself (lib/auth/session.ts), so no route relies on this file alone.
 */
export default withAuth(
  function forwardPath(req) {
    // Pages read this to build the return address when the database says the session has ended.
    const requestHeaders = new Headers(req.headers);
    requestHeaders.set("x-ems-path", req.nextUrl.pathname + req.nextUrl.search);
    return NextResponse.next({ request: { headers: requestHeaders } });
  },
  { pages: { signIn: "/sign-in" } },
);

export const config = {
  // Everything but the public pages, next-auth's own routes, the health check, the embedded sandbox
  // (it has its own bearer auth), invitation links and static assets.
  matcher: ["/((?!sign-in|sign-up|invite|api/auth|api/health|sandbox|_next/static|_next/image|favicon.ico|icon.svg|robots.txt).*)"],
};
