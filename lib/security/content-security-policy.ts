/**
 * The Content-Security-Policy of every response, built by proxy.ts per request (pages carry a fresh
 * nonce; Next.js reads it back from the request's policy and puts it on its own scripts). Pure:
 * no environment, no Next.js, so the unit test and the proxy build the same strings.
 *
 * The headers that never change (nosniff, Referrer-Policy, Permissions-Policy, frame options) are
 * next.config.js's `headers()`, on every path; static files, which the proxy does not see, get
 * STATIC_CONTENT_SECURITY_POLICY from there too. docs/SECURITY.md explains each choice.
 */

export interface PagePolicyOptions {
  /** Fresh for every response: base64 of 16 random bytes (newNonce()). */
  nonce: string;
  /** `next dev`: React's dev tools need eval, and the dev overlay inline styles. Never in production. */
  development: boolean;
  /** The portal is served over HTTPS (NEXTAUTH_URL): sub-resources asked over http are upgraded. */
  https: boolean;
}

/**
 * For HTML pages. Scripts run only with this response's nonce ('strict-dynamic' then trusts what
 * they load, i.e. Next's chunks); no plugin, no <base>, forms post only to the portal, and no other
 * site may frame it.
 */
/**
 * Inline styles a library writes itself, allowed by their hash: sonner (the toasts) inserts its
 * stylesheet as a `<style>` element when it loads, with no way to give it a nonce. The hash is of
 * the exact text of the pinned version; tests/security/content-security-policy.test.ts recomputes
 * it from node_modules, so an upgrade that changes the text fails there, not silently in browsers.
 */
export const LIBRARY_STYLE_HASHES = [
  "'sha256-StEaX+se6YS7pqjzrzMIA0KaX9zF/8zAhvQXZAe5epY='",
  // sonner appends its <style> to the page before filling it in: the element is checked empty first.
  // An empty stylesheet styles nothing.
  "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='",
] as const;

export function pageContentSecurityPolicy({ nonce, development, https }: PagePolicyOptions): string {
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    // In development the dev overlay needs 'unsafe-inline', which any nonce or hash would switch off.
    `style-src 'self' ${development ? "'unsafe-inline'" : `'nonce-${nonce}' ${LIBRARY_STYLE_HASHES.join(" ")}`}`,
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "frame-src 'none'",
  ];
  if (https) directives.push("upgrade-insecure-requests");
  return directives.join("; ");
}

/**
 * For everything that is not a page: JSON of the API routes, the embedded sandbox, files. Nothing
 * in such a response may run or load anything, even when a browser is tricked into rendering it.
 * next.config.js holds the same string for the static files (tests/security/headers.test.ts).
 */
export const STATIC_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Two years, subdomains included (the portal's cookies are host-only, but a subdomain over http could still set cookies). */
export const STRICT_TRANSPORT_SECURITY = "max-age=63072000; includeSubDomains";

/** 128 random bits, base64: unguessable, and valid in a CSP source expression. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/** The nonce inside a page policy (what Next.js itself extracts), for tests. */
export function nonceOf(policy: string): string | null {
  return /'nonce-([A-Za-z0-9+/=_-]+)'/.exec(policy)?.[1] ?? null;
}
