import { NextResponse, type NextRequest } from "next/server";
import { safeCallbackUrl } from "@/lib/auth/callback-url";
import { canonicalListingQuery, listingAt } from "@/lib/listing/canonical";
import { securityHeadersEnv } from "@/lib/env";
import { foreignOriginRefusal, malformedActionRefusal, mayBeActionRequest, writeBody, type Refusal } from "@/lib/security/action-request";
import { newNonce, pageContentSecurityPolicy, STATIC_CONTENT_SECURITY_POLICY, STRICT_TRANSPORT_SECURITY } from "@/lib/security/content-security-policy";

/** next-auth's session cookie: `__Secure-` prefixed over HTTPS, split into `.0`, `.1`… when large. */
const SESSION_COOKIE = /^(__Secure-)?next-auth\.session-token(\.\d+)?$/;

/**
 * Open to visitors without a session: the public pages, next-auth's own routes, the health check, the
 * metrics (METRICS_TOKEN), the cron routes (CRON_SECRET), the embedded sandbox (its own bearer auth), invitation links. Whole path
 * segments only: `/api/health-findings` is not `/api/health`, nor `/sandboxx` the sandbox.
 */
const PUBLIC_PATH = /^\/(sign-in|sign-up|invite|api\/auth|api\/health|api\/metrics|api\/cron\/[^/]+|sandbox)(\/|$)/;
/** The embedded sandbox (app/sandbox/[...path]), and nothing that only starts like it. */
const SANDBOX_PATH = /^\/sandbox(\/|$)/;

function hasSessionCookie(req: NextRequest): boolean {
  return req.cookies.getAll().some((cookie) => SESSION_COOKIE.test(cookie.name) && cookie.value !== "");
}

/**
 * Every request but static files passes here, for three jobs kept apart:
 *
 * 1. Security (`securityHeaders`, `refusal`): a Content-Security-Policy on every response (pages
 *    with a fresh nonce), HSTS over HTTPS, and a 4xx for a cross-site, undecodable or too large
 *    write before it reaches a server action or a route (lib/security/action-request.ts).
 * 2. The first gate (`sessionGate`): a visitor without a session cookie goes to the sign-in page
 *    with a return address. It does not decode the cookie: every page, data function and server
 *    action checks the session against the database itself (getActor in lib/auth/session.ts, which
 *    decodes the JWT once per request), so this is no security boundary and need not pay for a
 *    second decode.
 * 3. Canonical listing addresses (`canonicalListingRedirect`), before any rendering starts.
 */
export async function proxy(req: NextRequest): Promise<NextResponse> {
  const security = securityHeaders(req);
  // The sandbox is an API for other servers (its own bearer auth, no cookies): any origin may call it.
  const refused = SANDBOX_PATH.test(req.nextUrl.pathname) ? null : foreignOriginRefusal(req.method, req.headers);
  if (refused) return security.apply(refusal(refused));
  // Every write's body is counted as it is read (a copy: the page or route gets the original), so
  // no header can make a large one pass.
  const body = await writeBody(req);
  if (!(body instanceof Uint8Array)) return security.apply(refusal(body));
  const malformed = security.isPage && mayBeActionRequest(req.method, req.headers) ? await malformedActionRefusal(req, body) : null;
  if (malformed) return security.apply(refusal(malformed));
  // A visitor who is sent to sign in comes back to the address asked for, canonicalised then.
  return security.apply(
    sessionGate(req, security.requestHeaders) ?? canonicalListingRedirect(req) ?? NextResponse.next({ request: { headers: security.requestHeaders } }),
  );
}

/**
 * A listing page asked for as a document at a long address (a submitted options form sends every
 * field) is sent to its canonical one here, before rendering starts: a plain redirect. Inside the
 * page, once the layout has been streamed, a redirect can only be a `<meta http-equiv="refresh">`
 * that makes the browser wait a second. Client navigations (RSC requests) are redirected by the
 * page itself (lib/listing/resolve.ts), which the router follows without a page load.
 */
function canonicalListingRedirect(req: NextRequest): NextResponse | null {
  if ((req.method !== "GET" && req.method !== "HEAD") || req.headers.has("rsc")) return null;
  const resource = listingAt(req.nextUrl.pathname);
  const canonical = resource ? canonicalListingQuery(resource, req.nextUrl.searchParams) : null;
  if (canonical === null) return null;
  const target = req.nextUrl.clone();
  target.search = `?${canonical}`;
  return NextResponse.redirect(target);
}

/** A redirect to sign-in, or null to let the request pass. */
function sessionGate(req: NextRequest, requestHeaders: Headers): NextResponse | null {
  const path = req.nextUrl.pathname + req.nextUrl.search;
  // Pages read this to build the return address when the database says the session has ended.
  // Always set here, so a value the client sent never survives.
  requestHeaders.set("x-ems-path", path);
  if (!PUBLIC_PATH.test(req.nextUrl.pathname) && !hasSessionCookie(req)) {
    const signIn = new URL(`${req.nextUrl.basePath}/sign-in`, req.nextUrl.origin);
    // The same rule as every other return address (a request path like `//evil.example` is no path
    // of ours).
    signIn.searchParams.append("callbackUrl", safeCallbackUrl(`${req.nextUrl.basePath}${path}`, { origin: req.nextUrl.origin }));
    return NextResponse.redirect(signIn);
  }
  return null;
}

function refusal({ status, message }: Refusal): NextResponse {
  return new NextResponse(`${message}\n`, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

/**
 * The per-request security headers. A page gets a policy with a new nonce, both on the response
 * and on the request: Next.js reads the nonce from the request's policy and puts it on every
 * script it writes (a policy the client sent is replaced). API routes and the sandbox answer JSON
 * and get the static policy under which nothing runs. The other headers are next.config.js's.
 */
function securityHeaders(req: NextRequest) {
  const env = securityHeadersEnv();
  const https = env.NEXTAUTH_URL?.startsWith("https:") ?? false;
  const isPage = !/^\/(api|sandbox)(\/|$)/.test(req.nextUrl.pathname);
  const policy = isPage ? pageContentSecurityPolicy({ nonce: newNonce(), development: env.NODE_ENV === "development", https }) : STATIC_CONTENT_SECURITY_POLICY;
  const requestHeaders = new Headers(req.headers);
  if (isPage) requestHeaders.set("content-security-policy", policy);
  else requestHeaders.delete("content-security-policy");
  return {
    isPage,
    requestHeaders,
    apply(response: NextResponse): NextResponse {
      response.headers.set("Content-Security-Policy", policy);
      if (https && env.NODE_ENV === "production") response.headers.set("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY);
      return response;
    },
  };
}

export const config = {
  // Everything but static files, which next.config.js's headers() covers (the same list there:
  // tests/security/headers.test.ts). Public pages pass too, for their policy and nonce.
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg|robots.txt).*)"],
};
