import { expect, test, type APIRequestContext } from "@playwright/test";
import { newTestUser, signUp } from "./helpers/auth";

// A sandbox account typed in by hand (lib/sandbox/demo-credentials.ts OTHER_CREDENTIALS).
const KEY = "ems_other_key";
const SECRET = "other-secret-123";
// Every sandbox bearer token starts with this (lib/sandbox/core/tokens.ts).
const TOKEN_PREFIX = "ems1.";

const FORBIDDEN = [KEY, SECRET, encodeURIComponent(SECRET), Buffer.from(`${KEY}:${SECRET}`).toString("base64"), TOKEN_PREFIX];

function leaksIn(text: string): string[] {
  return FORBIDDEN.filter((needle) => text.includes(needle));
}

/** Same-origin page paths linked from an HTML document (no API routes, no sign-out). */
function linkedPaths(html: string): string[] {
  const paths = new Set<string>();
  for (const match of html.matchAll(/href="(\/[^"#]*)"/g)) {
    const path = match[1].replace(/&amp;/g, "&");
    if (path.startsWith("/_next") || path.startsWith("/api/") || path.startsWith("/sandbox") || /\.(svg|ico|png|css|js)(\?|$)/.test(path)) continue;
    paths.add(path);
  }
  return [...paths];
}

async function fetchBoth(request: APIRequestContext, path: string) {
  const html = await request.get(path, { maxRedirects: 5 });
  const rsc = await request.get(path, { headers: { RSC: "1" }, maxRedirects: 5 });
  return { html: await html.text(), htmlStatus: html.status(), rsc: await rsc.text(), rscStatus: rsc.status() };
}

test("after saving credentials, no page the user can open carries the key, the secret or a token (HTML and RSC payload)", async ({ page }) => {
  test.setTimeout(120_000);
  const captured: { url: string; body: string }[] = [];
  page.on("response", async (response) => {
    const type = response.headers()["content-type"] ?? "";
    if (!/text\/html|text\/x-component|application\/json/.test(type)) return;
    if (new URL(response.url()).pathname.startsWith("/sandbox")) return;
    try {
      captured.push({ url: response.url(), body: await response.text() });
    } catch {
      // A navigation can discard a body before it is read; the crawl below fetches every page anyway.
    }
  });

  const user = newTestUser("leak");
  await signUp(page, user);
  await page.goto("/settings/credentials");
  await page.getByRole("button", { name: /Use the built-in sandbox URL/ }).click();
  await page.getByLabel("Consumer key").fill(KEY);
  await page.getByLabel("Consumer secret").fill(SECRET);
  await page.getByRole("button", { name: "Save credentials" }).click();
  await expect(page.getByTestId("credential-summary")).toBeVisible();
  // A token now exists (in memory and, encrypted, in the database).
  await page.getByRole("button", { name: "Test connection" }).click();
  await expect(page.getByTestId("webhook-group-count")).toHaveText(/^\d+$/);
  // The listing pages use the credentials too.
  await page.goto("/webhook-groups");
  await page.goto("/events");

  // Crawl every page reachable from the portal's own links, plus the ones this issue adds.
  const queue = ["/", "/settings", "/team", "/audit", "/account", "/webhook-groups", "/events", "/views"];
  const seen = new Set<string>();
  const fetched: string[] = [];
  while (queue.length > 0 && seen.size < 60) {
    const path = queue.shift()!;
    if (seen.has(path)) continue;
    seen.add(path);
    const result = await fetchBoth(page.request, path);
    expect(result.htmlStatus, `${path} answered ${result.htmlStatus}`).toBeLessThan(500);
    expect(leaksIn(result.html), `HTML of ${path}`).toEqual([]);
    expect(leaksIn(result.rsc), `RSC payload of ${path}`).toEqual([]);
    fetched.push(path);
    for (const next of linkedPaths(result.html)) if (!seen.has(next)) queue.push(next);
  }
  expect(fetched).toEqual(expect.arrayContaining(["/settings", "/team", "/audit"]));

  // And everything the browser itself received on the way (server action answers included).
  expect(captured.length).toBeGreaterThan(3);
  for (const { url, body } of captured) expect(leaksIn(body), url).toEqual([]);

  // The page still tells the person what they saved.
  await page.goto("/settings/credentials");
  await expect(page.getByTestId("credential-key-last4")).toContainText(KEY.slice(-4));
  // The replace form starts empty: the saved key is never put back into a field.
  await expect(page.getByLabel("Consumer key")).toHaveValue("");
});
