// the security headers. The policy builder, next.config.js's fixed headers,
// and what proxy.ts puts on each kind of response. The e2e spec e2e/security-headers.spec.ts reads
// them off a production build, page by page.
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import nextConfig, { SECURITY_HEADERS, STATIC_PATHS } from "@/next.config.js";
import { config as proxyConfig, proxy } from "@/proxy";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import {
  LIBRARY_STYLE_HASHES,
  newNonce,
  nonceOf,
  pageContentSecurityPolicy,
  STATIC_CONTENT_SECURITY_POLICY,
  STRICT_TRANSPORT_SECURITY,
} from "@/lib/security/content-security-policy";

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0] !== "")
      .map(([name, ...sources]) => [name, sources]),
  );
}

function request(path: string, init: { method?: string; headers?: Record<string, string> } = {}) {
  return new NextRequest(new URL(path, "http://portal.test"), { method: init.method ?? "GET", headers: { host: "portal.test", ...init.headers } });
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("the page policy (lib/security/content-security-policy.ts)", () => {
  it("runs only scripts with this response's nonce, and nothing may frame the page", () => {
    const policy = directives(pageContentSecurityPolicy({ nonce: "abc123==", development: false, https: false }));
    expect(policy.get("script-src")).toEqual(["'self'", "'nonce-abc123=='", "'strict-dynamic'"]);
    expect(policy.get("style-src")).toEqual(["'self'", "'nonce-abc123=='", ...LIBRARY_STYLE_HASHES]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("base-uri")).toEqual(["'none'"]);
    expect(policy.get("form-action")).toEqual(["'self'"]);
    expect(policy.get("default-src")).toEqual(["'self'"]);
    const text = pageContentSecurityPolicy({ nonce: "abc123==", development: false, https: false });
    expect(text).not.toMatch(/unsafe-(eval|inline)/);
    expect(policy.has("upgrade-insecure-requests")).toBe(false);
  });

  it("allows the stylesheet sonner inserts by the hash of its exact text, and no other inline style", () => {
    // What sonner passes to its own __insertCSS when it loads, read from the installed package.
    const source = readFileSync(createRequire(import.meta.url).resolve("sonner"), "utf8");
    const literal = /__insertCSS\("((?:[^"\\]|\\.)*)"\)/.exec(source)?.[1];
    expect(literal, "sonner no longer inserts its stylesheet this way: check its CSP needs").toBeDefined();
    const css = JSON.parse(`"${literal}"`) as string;
    const hash = `'sha256-${createHash("sha256").update(css).digest("base64")}'`;
    const empty = `'sha256-${createHash("sha256").update("").digest("base64")}'`;
    expect(LIBRARY_STYLE_HASHES).toEqual([hash, empty]);
  });

  it("allows eval (React's dev tools) and inline styles (the dev overlay) in development only", () => {
    const dev = directives(pageContentSecurityPolicy({ nonce: "n", development: true, https: false }));
    expect(dev.get("script-src")).toContain("'unsafe-eval'");
    expect(dev.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
  });

  it("upgrades http sub-resources when the portal is served over HTTPS", () => {
    expect(directives(pageContentSecurityPolicy({ nonce: "n", development: false, https: true })).has("upgrade-insecure-requests")).toBe(true);
  });

  it("makes a new 128-bit nonce each time, which reads back out of the policy", () => {
    const nonces = new Set(Array.from({ length: 200 }, () => newNonce()));
    expect(nonces.size).toBe(200);
    for (const nonce of nonces) {
      expect(Buffer.from(nonce, "base64")).toHaveLength(16);
      expect(nonceOf(pageContentSecurityPolicy({ nonce, development: false, https: false }))).toBe(nonce);
    }
  });
});

describe("next.config.js headers(): the fixed headers on every path", () => {
  it("puts nosniff, the referrer and permissions policies and frame denial on every path", async () => {
    const rules = await nextConfig.headers!();
    const everywhere = rules.find((rule) => rule.source === "/:path*");
    expect(everywhere?.headers).toEqual(SECURITY_HEADERS);
    const byName = Object.fromEntries(SECURITY_HEADERS.map((h) => [h.key, h.value]));
    expect(byName).toMatchObject({
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "strict-origin-when-cross-origin",
      "X-Frame-Options": "DENY",
    });
    expect(byName["Permissions-Policy"]).toMatch(/camera=\(\), .*microphone=\(\)/);
    // The Content-Security-Policy is per request (proxy.ts), except on static files.
    expect(everywhere?.headers.some((h) => h.key === "Content-Security-Policy")).toBe(false);
  });

  it("gives static files, which the proxy does not see, the static policy: the same paths the proxy's matcher leaves out", async () => {
    const rules = await nextConfig.headers!();
    const withPolicy = rules.filter((rule) => rule.headers.some((h) => h.key === "Content-Security-Policy"));
    expect(withPolicy.map((rule) => rule.source)).toEqual(STATIC_PATHS);
    for (const rule of withPolicy) expect(rule.headers).toEqual([{ key: "Content-Security-Policy", value: STATIC_CONTENT_SECURITY_POLICY }]);
    const excluded = /\(\?!([^)]*)\)/.exec(proxyConfig.matcher[0])![1].split("|");
    expect(excluded.map((path) => `/${path}`)).toEqual(STATIC_PATHS.map((path) => path.replace("/:path*", "")));
  });

  it("adds HSTS to static files asked for over HTTPS, in a production build only", async () => {
    expect((await nextConfig.headers!()).some((rule) => rule.headers.some((h) => h.key === "Strict-Transport-Security"))).toBe(false);
    vi.stubEnv("NODE_ENV", "production");
    const hsts = (await nextConfig.headers!()).filter((rule) => rule.headers.some((h) => h.key === "Strict-Transport-Security"));
    expect(hsts.map((rule) => rule.source)).toEqual(STATIC_PATHS);
    for (const rule of hsts) {
      expect(rule.has).toEqual([{ type: "header", key: "x-forwarded-proto", value: "https" }]);
      expect(rule.headers).toEqual([{ key: "Strict-Transport-Security", value: STRICT_TRANSPORT_SECURITY }]);
    }
  });
});

describe("proxy.ts: the policy of each response", () => {
  it("gives a page a policy with a fresh nonce, and hands the same policy to Next.js on the request", async () => {
    const first = await proxy(request("/team", { headers: { cookie: "next-auth.session-token=t" } }));
    const second = await proxy(request("/team", { headers: { cookie: "next-auth.session-token=t" } }));
    const policy = first.headers.get("content-security-policy")!;
    expect(nonceOf(policy)).not.toBeNull();
    expect(nonceOf(policy)).not.toBe(nonceOf(second.headers.get("content-security-policy")!));
    expect(directives(policy).get("frame-ancestors")).toEqual(["'none'"]);
    expect(first.headers.get("x-middleware-request-content-security-policy")).toBe(policy);
  });

  it("replaces a policy the client sent (its nonce would otherwise go on the page's scripts)", async () => {
    const response = await proxy(request("/sign-in", { headers: { "content-security-policy": "script-src 'nonce-chosen'" } }));
    expect(response.headers.get("x-middleware-request-content-security-policy")).not.toContain("chosen");
  });

  it("covers the public pages, without sending them to sign in", async () => {
    for (const path of ["/sign-in", "/sign-up", "/invite/abc", "/sign-in?callbackUrl=%2Fteam"]) {
      const response = await proxy(request(path));
      expect(response.status, path).toBe(200);
      expect(response.headers.get("x-middleware-next"), path).toBe("1");
      expect(nonceOf(response.headers.get("content-security-policy") ?? ""), path).not.toBeNull();
    }
  });

  it("puts the policy on the redirect to sign in too", async () => {
    const response = await proxy(request("/audit"));
    expect(response.status).toBe(307);
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });

  it("gives API routes and the sandbox the static policy, and lets the public ones through", async () => {
    for (const path of ["/api/health", "/api/auth/session", "/sandbox/api/v1/webhook-groups"]) {
      const response = await proxy(request(path));
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-security-policy"), path).toBe(STATIC_CONTENT_SECURITY_POLICY);
    }
    const exportResponse = await proxy(request("/api/export/webhook-groups", { headers: { cookie: "next-auth.session-token=t" } }));
    expect(exportResponse.headers.get("content-security-policy")).toBe(STATIC_CONTENT_SECURITY_POLICY);
  });

  it("sends HSTS in production when NEXTAUTH_URL is https, and not otherwise", async () => {
    vi.stubEnv("NODE_ENV", "production");
    vi.stubEnv("NEXTAUTH_URL", "http://portal.test");
    expect((await proxy(request("/sign-in"))).headers.get("strict-transport-security")).toBeNull();
    vi.stubEnv("NEXTAUTH_URL", "https://portal.example.com");
    for (const path of ["/sign-in", "/api/health", "/webhook-groups"]) {
      const response = await proxy(request(path));
      expect(response.headers.get("strict-transport-security"), path).toBe(STRICT_TRANSPORT_SECURITY);
    }
    expect(directives((await proxy(request("/sign-in"))).headers.get("content-security-policy")!).has("upgrade-insecure-requests")).toBe(true);
    vi.stubEnv("NODE_ENV", "development");
    expect((await proxy(request("/sign-in"))).headers.get("strict-transport-security")).toBeNull();
  });

  it("allows eval in development only", async () => {
    vi.stubEnv("NODE_ENV", "development");
    expect((await proxy(request("/sign-in"))).headers.get("content-security-policy")).toContain("'unsafe-eval'");
    vi.stubEnv("NODE_ENV", "production");
    expect((await proxy(request("/sign-in"))).headers.get("content-security-policy")).not.toContain("'unsafe-eval'");
  });
});
