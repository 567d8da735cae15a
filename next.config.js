/**
 * The security headers that are the same on every response, static files, errors and redirects
 * included. The Content-Security-Policy of everything else, and HSTS, are set per request by
 * proxy.ts (a page's policy carries a fresh nonce); static files, which the proxy does not see,
 * get the static policy here. docs/SECURITY.md explains each header; tests/security/headers.test.ts
 * checks this list against proxy.ts's.
 */
export const SECURITY_HEADERS = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  // Nothing of the portal needs a device or sensor; no page (or anything it includes) may ask.
  { key: "Permissions-Policy", value: "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()" },
  // For browsers without CSP frame-ancestors.
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

/** Paths proxy.ts's matcher leaves out (keep the two lists equal). */
export const STATIC_PATHS = ["/_next/static/:path*", "/_next/image", "/favicon.ico", "/icon.svg", "/robots.txt"];

/** The static policy of lib/security/content-security-policy.ts (the test checks they are equal). */
const STATIC_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
const STRICT_TRANSPORT_SECURITY = "max-age=63072000; includeSubDomains";

/**
 * The most a request may send, in bytes: lib/security/request-body.ts's BODY_LIMIT_BYTES, which
 * proxy.ts counts on every write (tests/security/request-body.test.ts keeps the numbers equal).
 * Next.js's copy of a body for the proxy is a little larger on purpose: past its limit Next.js cuts
 * the copy silently instead of refusing, so the proxy must see more than the limit to refuse.
 */
export const BODY_LIMIT_BYTES = 1024 * 1024;
export const PROXY_BODY_COPY_BYTES = BODY_LIMIT_BYTES + 256 * 1024;

/** @type {import('next').NextConfig} */
const nextConfig = {
  // The Prisma client, argon2 and the job engine are server-only Node packages; keep them out of the bundle.
  // OpenTelemetry and prom-client keep process-wide state (the tracer provider, the metrics registry):
  // one copy each, loaded by Node, not one per bundle.
  serverExternalPackages: [
    "@node-rs/argon2",
    "pg",
    "@prisma/adapter-pg",
    // The same instance as adapter-pg's (lib/db/prisma.ts empties its history), not a bundled copy.
    "@prisma/debug",
    "pg-boss",
    "@opentelemetry/api",
    "@opentelemetry/context-async-hooks",
    "@opentelemetry/exporter-trace-otlp-http",
    "@opentelemetry/resources",
    "@opentelemetry/sdk-trace",
    "@prisma/instrumentation",
    "prom-client",
  ],
  poweredByHeader: false,
  // Responses stay gzipped by the Node server (Next's default; Vercel ignores it and compresses
  // itself). Off, bench:pages served 10-25 % more listing views a second (issue 38), but a listing's
  // HTML went out at 81 kB instead of ~15 kB, which a person on a slow link pays for in load time;
  // that trade is worth it only behind a proxy that compresses (nginx, a CDN), not in the default.
  compress: true,
  // A self-contained server for Node hosts (.next/standalone/server.js, with only the files it
  // needs); `npm run build` copies the static files beside it. Vercel ignores this setting.
  output: "standalone",
  typedRoutes: false,
  experimental: {
    // Next.js buffers every body it hands the proxy, 10 MB by default per request.
    proxyClientMaxBodySize: PROXY_BODY_COPY_BYTES,
    serverActions: { bodySizeLimit: BODY_LIMIT_BYTES },
    // A production server loads a route's code when the route is first asked for, not every
    // route's at start: preloaded, the code of pages few people open (sign-up, invitations,
    // two-factor enrolment, settings) sat in the 256 MB heap `npm start` gives the portal, and
    // Turbopack gives each of the five layouts' entries its own copy of the 585 kB chunk of the
    // server's shared code (the database client, zod, the EMS client), 1.2 MB of heap each as
    // source text. What it costs: a route's first request after a start loads its code first.
    // Production only: `next dev` compiles each route when first asked for anyway, and lists a
    // changed experiment in its start-up output as "⨯", which e2e/readme-dev.spec.ts counts as a problem.
    ...(process.env.NODE_ENV === "production" ? { preloadEntriesOnStart: false } : {}),
    // `npm test` on a CI machine builds a fresh clone once and throws the clone away: writing
    // Turbopack's build cache there (on by default since Next 16.4) took 24 s of a 212 s build and is
    // never read. scripts/test-all.mjs sets this for CI only; a developer's builds keep the cache.
    ...(process.env.EMS_BUILD_CACHE === "off" ? { turbopackFileSystemCacheForBuild: false } : {}),
    // Not `inlineCss` (issue 38, measured with bench:lighthouse and bench:pages): it removes the one
    // render-blocking request (~180 ms in Lighthouse's mobile run) but puts the 70 kB stylesheet into
    // every page twice, as a <style> and again in the RSC payload: /webhook-groups went from 84 to
    // 294 kB of HTML (17 to 57 kB on the wire), its req/s from 0.47x to 0.28-0.35x the floor's, and its
    // LCP did not move beyond the spread between runs.
  },
  // `npm test` type-checks in a step of its own beside the build (scripts/test-all.mjs); every
  // other build (deploys, `npm run build`) checks types itself and fails on an error.
  typescript: { ignoreBuildErrors: process.env.EMS_BUILD_SKIP_TYPECHECK === "1" },
  // Settings opens on its first section. Here, not in the page: an HTTP redirect keeps an old
  // link's fragment (/settings#history-heading), which the sections' layout forwards to its section
  // (components/settings/legacy-anchor.tsx); a redirect from a streamed page would drop it.
  async redirects() {
    return [{ source: "/settings", destination: "/settings/credentials", permanent: false }];
  },
  async headers() {
    return [
      { source: "/:path*", headers: SECURITY_HEADERS },
      ...STATIC_PATHS.map((source) => ({ source, headers: [{ key: "Content-Security-Policy", value: STATIC_CONTENT_SECURITY_POLICY }] })),
      // HSTS is decided when a request comes (proxy.ts: NEXTAUTH_URL is https); these headers are
      // fixed at build time, so static files get it when they were asked for over HTTPS.
      ...(process.env.NODE_ENV === "production"
        ? STATIC_PATHS.map((source) => ({
            source,
            has: [{ type: "header", key: "x-forwarded-proto", value: "https" }],
            headers: [{ key: "Strict-Transport-Security", value: STRICT_TRANSPORT_SECURITY }],
          }))
        : []),
    ];
  },
};

export default nextConfig;
