import { expect, test, type APIResponse, type Page } from "@playwright/test";
import { E2E_BASE_URL, ROLE_STATE } from "./helpers/config";
import { apiList } from "./listing-helpers";

// Issue 10, findings 7 and 8, read off the production build: the security headers of every kind of
// response (pages signed out and in, redirects, errors, 404s, API routes, static files), the nonce
// on a page's scripts, a page that works under its policy, no framing by another site, and the
// statuses of a missing group and of refused server action requests.

const SIGNED_OUT = { cookies: [], origins: [] };
/** The portal's pages behind sign-in, one of each kind. */
const PORTAL_PAGES = ["/", "/webhook-groups", "/webhook-groups/3", "/events", "/views", "/settings/credentials", "/team", "/audit", "/account", "/account/sessions"];

function headerValues(response: APIResponse, name: string): string[] {
  return response
    .headersArray()
    .filter((header) => header.name.toLowerCase() === name)
    .map((header) => header.value);
}

function nonceOf(policy: string): string | null {
  return /'nonce-([A-Za-z0-9+/=]+)'/.exec(policy)?.[1] ?? null;
}

/** The headers every response carries, and the one policy it carries; returns that policy. */
function expectSecurityHeaders(response: APIResponse, what: string): string {
  const headers = response.headers();
  expect(headers["x-content-type-options"], what).toBe("nosniff");
  expect(headers["referrer-policy"], what).toBe("strict-origin-when-cross-origin");
  expect(headers["permissions-policy"], what).toMatch(/camera=\(\).*microphone=\(\)/);
  expect(headers["x-frame-options"], what).toBe("DENY");
  // Exactly one policy: two would both be enforced (and a nonce-less one would block the page).
  const policies = headerValues(response, "content-security-policy");
  expect(policies, what).toHaveLength(1);
  expect(policies[0], what).toContain("frame-ancestors 'none'");
  // The suite runs over http: HSTS is for HTTPS deployments (NEXTAUTH_URL https).
  expect(headers["strict-transport-security"], what).toBeUndefined();
  return policies[0];
}

function expectPagePolicy(policy: string, what: string): string {
  const nonce = nonceOf(policy);
  expect(nonce, what).not.toBeNull();
  expect(policy, what).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'(;|$)/);
  expect(policy, what).not.toMatch(/unsafe-(eval|inline)/);
  expect(policy, what).toContain("object-src 'none'");
  return nonce!;
}

function expectStaticPolicy(policy: string, what: string): void {
  expect(policy, what).toContain("default-src 'none'");
  expect(nonceOf(policy), what).toBeNull();
}

/** Every <script> of an HTML page carries the response's nonce. */
function expectScriptsCarry(html: string, nonce: string, what: string): void {
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
  expect(scripts.length, what).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag, what).toContain(`nonce="${nonce}"`);
}

/** A static file of the build, as linked from a page. */
function staticAssetOf(html: string): string {
  const path = /(?:src|href)="(\/_next\/static\/[^"]+\.(?:js|css))"/.exec(html)?.[1];
  expect(path).toBeTruthy();
  return path!;
}

async function pageChecks(response: APIResponse, what: string): Promise<void> {
  const policy = expectSecurityHeaders(response, what);
  if ((response.headers()["content-type"] ?? "").includes("text/html")) {
    const nonce = expectPagePolicy(policy, what);
    expectScriptsCarry(await response.text(), nonce, what);
  } else if (response.status() >= 300 && response.status() < 400) {
    // A redirect from the proxy: a page's policy, no body to run.
    expect(policy, what).toContain("frame-ancestors 'none'");
  }
}

test.describe("signed out", () => {
  test.use({ storageState: SIGNED_OUT });

  test("every response carries the security headers: pages, redirects, API, 404s, static files", async ({ request }) => {
    for (const path of ["/sign-in", "/sign-up", "/sign-in?callbackUrl=%2Fteam", "/invite/no-such-invitation"]) {
      const response = await request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBeLessThan(500);
      await pageChecks(response, path);
    }
    // Portal pages (and unknown ones) send a visitor without a session to sign in.
    for (const path of [...PORTAL_PAGES, "/no-such-page", "/api/export/webhook-groups"]) {
      const response = await request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(307);
      expect(response.headers().location, path).toContain("/sign-in?callbackUrl=");
      await pageChecks(response, path);
    }
    const health = await request.get("/api/health");
    expect(health.status()).toBe(200);
    expectStaticPolicy(expectSecurityHeaders(health, "/api/health"), "/api/health");

    const session = await request.get("/api/auth/session");
    expectStaticPolicy(expectSecurityHeaders(session, "/api/auth/session"), "/api/auth/session");

    const sandbox = await request.get("/sandbox/api/v1/webhook-groups");
    expect(sandbox.status()).toBeGreaterThanOrEqual(400);
    expectStaticPolicy(expectSecurityHeaders(sandbox, "/sandbox"), "/sandbox");

    const asset = staticAssetOf(await (await request.get("/sign-in")).text());
    const file = await request.get(asset);
    expect(file.status()).toBe(200);
    expectStaticPolicy(expectSecurityHeaders(file, asset), asset);
    const missingFile = await request.get("/_next/static/chunks/no-such-file.js");
    expect(missingFile.status()).toBe(404);
    expectStaticPolicy(expectSecurityHeaders(missingFile, "missing static file"), "missing static file");
    const icon = await request.get("/icon.svg");
    expectSecurityHeaders(icon, "/icon.svg");
  });

  test("a static file asked for over HTTPS (through a TLS proxy) gets HSTS", async ({ request }) => {
    const asset = staticAssetOf(await (await request.get("/sign-in")).text());
    const overHttps = await request.get(asset, { headers: { "X-Forwarded-Proto": "https" } });
    expect(overHttps.headers()["strict-transport-security"]).toBe("max-age=63072000; includeSubDomains");
  });

  test("the sign-in page works under its policy, with nothing refused", async ({ page }) => {
    const violations = await watchForViolations(page);
    await page.goto("/sign-in");
    await page.getByLabel("Email").fill("nobody@example.test");
    await page.getByLabel("Password").fill("wrong password 123");
    await page.getByRole("button", { name: "Sign in" }).click();
    // The form's script ran (next-auth's sign-in through fetch) and answered.
    await expect(page.getByTestId("form-error")).toBeVisible({ timeout: 30_000 });
    expect(await violations()).toEqual([]);
  });
});

test.describe("signed in", () => {
  test.use({ storageState: ROLE_STATE.lister });
  test.describe.configure({ timeout: 120_000 });

  test("every page, error and API answer carries the security headers, and each page's scripts its nonce", async ({ page }) => {
    const request = page.request;
    const pages = [...PORTAL_PAGES, "/webhook-groups?sort=-id&per-page=50", "/sign-in", "/sign-up"];
    for (const path of pages) {
      const response = await request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBeLessThan(500);
      await pageChecks(response, path);
    }
    const notFound = await request.get("/no-such-page");
    expect(notFound.status()).toBe(404);
    await pageChecks(notFound, "404 page");

    for (const [path, status] of [
      ["/api/health", 200],
      ["/api/export/contacts?format=csv", 404],
      ["/api/export/webhook-groups?format=csv&sort=colour", 400],
      ["/api/export/webhook-groups?format=csv&filter=constructor%3D1", 400],
    ] as const) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(status);
      expectStaticPolicy(expectSecurityHeaders(response, path), path);
    }
    const asset = staticAssetOf(await (await request.get("/team")).text());
    expectStaticPolicy(expectSecurityHeaders(await request.get(asset), asset), asset);
  });

  test("two responses never share a nonce", async ({ page }) => {
    const request = page.request;
    const nonces = new Set<string>();
    for (let i = 0; i < 5; i++) nonces.add(nonceOf((await request.get("/team")).headers()["content-security-policy"])!);
    expect(nonces.size).toBe(5);
  });

  test("a listing works under its policy: it hydrates, filters, exports, with nothing refused", async ({ page }) => {
    const violations = await watchForViolations(page);
    await page.goto("/webhook-groups");
    await expect(page.getByTestId("listing-table")).toBeVisible();
    await expect(page.getByTestId("listing-toolbar")).toHaveAttribute("data-ready", "true");
    // A Radix popover (positioned by script) and a filter applied by client navigation.
    await page.getByTestId("add-filter").click();
    await page.getByTestId("filter-editor").getByLabel("Value").fill("sync");
    await page.getByTestId("filter-editor").getByRole("button", { name: "Add filter" }).click();
    await expect(page.getByTestId("filter-chip")).toBeVisible();
    const download = page.waitForEvent("download");
    await page.getByTestId("export-menu").click();
    await page.getByTestId("export-json").click();
    await download;
    await expect(page.getByTestId("export-status")).toContainText("Exported");
    // Client-side navigation (the RSC requests) under the same policy.
    await page.getByRole("link", { name: "Team", exact: true }).first().click();
    await expect(page).toHaveURL(/\/team$/);
    await page.goto("/no-such-page");
    await expect(page.getByRole("heading", { name: "This page does not exist" })).toBeVisible();
    expect(await violations()).toEqual([]);
  });

  test("the command palette, its server search and a confirmation dialog work under the policy, with nothing refused", async ({ page }) => {
    const violations = await watchForViolations(page);
    await page.goto("/team");
    await expect(page.getByTestId("palette-open")).toHaveAttribute("data-ready", "true");
    await page.keyboard.press("Control+K");
    await expect(page.getByTestId("command-palette")).toBeVisible();
    await page.getByTestId("palette-input").fill("sync");
    await expect(page.getByTestId("palette-search-error").or(page.getByTestId("palette-webhook-none")).or(page.getByTestId("palette-webhook").first())).toBeVisible({
      timeout: 15_000,
    });
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("command-palette")).toHaveCount(0);
    await page.goto("/account");
    await page.getByRole("button", { name: "Sign out of all sessions…" }).click();
    await expect(page.getByTestId("confirm-dialog")).toBeVisible();
    await page.getByTestId("confirm-dialog").getByRole("button", { name: "Cancel" }).click();
    expect(await violations()).toEqual([]);
  });

  test("another site cannot frame a page of the portal", async ({ page }) => {
    const foreign = "http://foreign.example";
    await page.route(`${foreign}/**`, (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<!doctype html><title>foreign</title><iframe name="portal" src="${E2E_BASE_URL}/team" width="800" height="600"></iframe>`,
      }),
    );
    await page.goto(`${foreign}/`);
    const frame = page.frame({ name: "portal" });
    expect(frame).not.toBeNull();
    await page.waitForTimeout(1_500);
    // The browser refused to render it: none of the portal's markup (every page has the skip link).
    expect(await frame!.locator("a[href='#main']").count()).toBe(0);
    // The same page outside a frame does render.
    const direct = await page.context().newPage();
    await direct.goto("/team");
    await expect(direct.locator("a[href='#main']")).toHaveCount(1);
    await direct.close();
  });

  test("a webhook group that does not exist answers 404, an existing one 200", async ({ page }) => {
    const request = page.request;
    const { items } = await apiList("webhook-groups", "per-page=1&sort=id");
    const existing = await request.get(`/webhook-groups/${items[0].id}`);
    expect(existing.status()).toBe(200);
    for (const path of ["/webhook-groups/abc", "/webhook-groups/999999", "/webhook-groups/0", "/webhook-groups/1e3"]) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(404);
      expect(await response.text(), path).toContain("No such webhook group in your account");
    }
  });

  test("a listing or an export with a filter on an inherited name answers, it does not fail", async ({ page }) => {
    const request = page.request;
    for (const filter of ["__proto__%3D1", "constructor%3D1", "constructor"]) {
      const listing = await request.get(`/webhook-groups?filter=${filter}`);
      expect(listing.status(), filter).toBe(200);
      expect(await listing.text(), filter).toContain("cannot be filtered on");
      expect((await request.get(`/api/export/webhook-groups?format=csv&filter=${filter}`)).status(), filter).toBe(400);
    }
  });

  test("server action requests that are cross-site or cannot be decoded answer 4xx, not 500", async ({ page }) => {
    const request = page.request;
    const html = await (await request.get("/settings/credentials")).text();
    const actionId = /\$ACTION_ID_([0-9a-f]{40,})/.exec(html)?.[1] ?? /&quot;id&quot;:&quot;([0-9a-f]{40,})&quot;/.exec(html)?.[1];
    expect(actionId, "a server action id on /settings").toBeTruthy();
    const origin = new URL(E2E_BASE_URL).origin;
    const asText = { "Content-Type": "text/plain;charset=UTF-8", "Next-Action": actionId! };

    // Cross-site: Next.js aborted these with 500.
    const crossSite = await request.post("/settings/credentials", { headers: { ...asText, Origin: "https://evil.example" }, data: '[{"status":"idle"},"$K1"]' });
    expect(crossSite.status()).toBe(403);
    expect(await crossSite.text()).toContain("sent from another site");
    const crossSiteForm = await request.post("/settings/credentials", {
      headers: { Origin: "https://evil.example" },
      multipart: { [`$ACTION_ID_${actionId}`]: "", baseUrl: "https://x.example" },
    });
    expect(crossSiteForm.status()).toBe(403);

    // Undecodable bodies, from the portal's own origin: Next.js threw while decoding (500).
    for (const body of ["garbage", '"x"', "{"]) {
      const response = await request.post("/settings/credentials", { headers: { ...asText, Origin: origin }, data: body });
      expect(response.status(), body).toBe(400);
    }
    const noBoundary = await request.post("/settings/credentials", { headers: { Origin: origin, "Content-Type": "multipart/form-data" }, data: "x" });
    expect(noBoundary.status()).toBe(400);
    const brokenMultipart = await request.post("/settings/credentials", {
      headers: { Origin: origin, "Content-Type": "multipart/form-data; boundary=zzz" },
      data: "not multipart at all",
    });
    expect(brokenMultipart.status()).toBe(400);

    // Unknown action ids: Next.js's own 4xx (400 for what is not an id, 409 for an id of no action in this build).
    for (const id of ["abc", "00".repeat(21)]) {
      const response = await request.post("/settings/credentials", { headers: { ...asText, "Next-Action": id, Origin: origin }, data: "[]" });
      expect(response.status(), id).toBeGreaterThanOrEqual(400);
      expect(response.status(), id).toBeLessThan(500);
    }
  });
});

/**
 * Collects what the page's policy refused: `securitypolicyviolation` events (listened for before
 * any page script runs) and the console's CSP errors.
 */
async function watchForViolations(page: Page): Promise<() => Promise<string[]>> {
  const seen: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to (load|execute|apply|connect|frame)/i.test(message.text())) seen.push(message.text());
  });
  page.on("pageerror", (error) => seen.push(`page error: ${error.message}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(`Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return async () => {
    await page.waitForTimeout(500);
    return seen;
  };
}
