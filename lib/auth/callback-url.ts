/**
 * Return addresses: where a person lands after signing in (`callbackUrl`), built the one way that
 * matches what a browser does with them. Prefix checks on the raw text ("starts with / but not //")
 * are not that: browsers drop tabs and newlines and read a backslash as a slash, so
 * `/\t/evil.example` or `/\evil.example` pass such a check and still leave the site.
 *
 * So the value is parsed as a browser would, against the portal's origin, with the WHATWG URL
 * parser; it is kept only if the origin did not change, and then only its path, query and hash,
 * re-serialised by the parser: percent-encoded, so a control or non-Latin-1 character can never
 * reach a `Location` header (Node refuses such a header with a 500).
 *
 * Plain TypeScript, no server-only import: the sign-in form runs it in the browser too.
 */

/**
 * The origin a relative value is resolved against when the caller has no better one. Any fixed
 * origin works for relative values, since only path, query and hash are kept; an absolute URL is
 * kept only when it names the origin the caller passed.
 */
const PLACEHOLDER_ORIGIN = "http://portal.invalid";

/**
 * The path, query and hash `value` leads to, when it stays on `origin`; null when it leaves it,
 * does not parse, or is not a string. Never starts with `//` or `/\`.
 */
export function sameOriginPath(value: unknown, origin: string = PLACEHOLDER_ORIGIN): string | null {
  if (typeof value !== "string" || value === "") return null;
  let base: URL;
  let url: URL;
  try {
    base = new URL(origin);
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.origin !== base.origin || url.origin === "null") return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // The parser never leaves `//` at the start of a path of an http(s) URL with a host, but a
  // return address is too important to rest on that alone.
  if (!path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\")) return null;
  return path;
}

export interface CallbackUrlOptions {
  /** The portal's origin, e.g. from NEXTAUTH_URL: an absolute URL on it is accepted too. */
  origin?: string;
  /** Where to go when the value is not a safe return address. */
  fallback?: string;
}

const AUTH_PAGES = ["/sign-in", "/sign-up"];

/**
 * The return address after signing in: a path on the portal, never the sign-in or sign-up page
 * itself (that would loop), else `fallback` ("/"). Used by the sign-in and sign-up pages, the
 * sign-in form, requireActor's redirect and the proxy; next-auth's redirect callback uses
 * `sameOriginPath` (signing out returns to /sign-in on purpose).
 */
export function safeCallbackUrl(value: string | string[] | undefined | null, options: CallbackUrlOptions = {}): string {
  const fallback = options.fallback ?? "/";
  const candidate = Array.isArray(value) ? value[0] : value;
  const path = sameOriginPath(candidate, options.origin);
  if (!path) return fallback;
  const pathname = path.split(/[?#]/, 1)[0]!;
  if (AUTH_PAGES.some((page) => pathname === page || pathname.startsWith(`${page}/`))) return fallback;
  return path;
}
