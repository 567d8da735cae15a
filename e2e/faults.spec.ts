import { expect, test, type Page } from "@playwright/test";
import { createAdminClient, OTHER_CREDENTIALS } from "@/lib/sandbox/testing";
import { newTestUser, signUp } from "./helpers/auth";
import { E2E_FAULT_SANDBOX_URL, E2E_SANDBOX_ADMIN_SECRET } from "./helpers/config";
import { shoot } from "./helpers/screenshots";
import { DEMO } from "./listing-helpers";

// These tests change how the sandbox behaves, so they use the fault sandbox (a standalone one only
// they talk to) and run one after another in one worker.
test.describe.configure({ mode: "serial", timeout: 120_000 });

const admin = createAdminClient(E2E_FAULT_SANDBOX_URL, E2E_SANDBOX_ADMIN_SECRET);

test.beforeEach(async () => {
  await admin.reset();
});
test.afterAll(async () => {
  await admin.reset();
});

/** A new person whose saved credentials point at the fault sandbox's demo account (or another one). */
async function signUpOnFaultSandbox(page: Page, prefix: string, credentials: { consumerKey: string; consumerSecret: string } = DEMO): Promise<void> {
  await signUp(page, newTestUser(prefix));
  await page.goto("/settings/credentials");
  await page.getByLabel("Base URL").fill(E2E_FAULT_SANDBOX_URL);
  await page.getByLabel("Consumer key").fill(credentials.consumerKey);
  await page.getByLabel("Consumer secret").fill(credentials.consumerSecret);
  await page.getByRole("button", { name: "Save credentials" }).click();
  await expect(page.getByText("Saved, encrypted (never shown)")).toBeVisible();
}

test("an API that does not answer the check before saving: 'Save anyway' saves unchecked; credentials the EMS rejects later say so on every listing", async ({
  page,
}) => {
  await signUp(page, newTestUser("unchecked"));
  await page.goto("/settings/credentials");
  await page.getByLabel("Base URL").fill(E2E_FAULT_SANDBOX_URL);
  await page.getByLabel("Consumer key").fill(DEMO.consumerKey);
  await page.getByLabel("Consumer secret").fill(DEMO.consumerSecret);
  // The token endpoint is down for the check (a few retries included).
  await admin.injectFaults({ count: 6, status: 503, paths: "token" });
  await page.getByRole("button", { name: "Save credentials" }).click();
  const checkFailed = page.getByTestId("credential-check-failed");
  await expect(checkFailed).toContainText("answered with a server error (503): try again in a moment");
  await expect(page.getByTestId("no-credentials")).toBeVisible();
  await shoot(page, "settings-check-failed", false);
  await checkFailed.getByRole("button", { name: "Save anyway" }).click();
  await expect(page.getByTestId("credential-form-success")).toContainText("Saved without a check");
  await expect(page.getByTestId("credential-status-badge")).toHaveText("Not checked yet");
  await admin.clearFaults();

  // Later the EMS refuses them (a secret rotated there): every listing says so, and so does Settings.
  await admin.revokeAllTokens();
  await admin.injectFaults({ count: 20, status: 401, paths: "token" });
  await page.goto("/webhook-groups");
  await expect(page.getByTestId("state-rejected")).toContainText("rejected your API credentials");
  await page.goto("/events");
  await expect(page.getByTestId("state-rejected")).toBeVisible();
  await page.goto("/settings/credentials");
  await expect(page.getByTestId("credential-status-badge")).toHaveText("Rejected");
  await shoot(page, "settings-rejected", false);
});

test("a token that expires mid-session never shows an error", async ({ page }) => {
  await signUpOnFaultSandbox(page, "expiry");
  // A reset keeps issued tokens: one from an earlier run of this file (a retry) would still be good.
  await admin.revokeAllTokens();
  await admin.setTokenLifetime(60);
  // Each a listing of its own: pages of one list share one read (lib/listing/page-block.ts).
  const urls = ["/webhook-groups", "/events", "/webhook-groups?sort=-id", "/events?sort=-id", "/webhook-groups?sort=name"];
  for (const [index, url] of urls.entries()) {
    // The API's clock moves a token lifetime on between pages: the token the portal holds has
    // expired for the API while the portal still thinks it good, the worst case of "mid-session".
    await admin.setClockOffset(61 * index);
    await page.goto(url);
    await expect(page.getByTestId("listing-table")).toBeVisible();
    await expect(page.locator("[data-testid^=state-]")).toHaveCount(0);
  }
  // Each page really needed a new token.
  expect((await admin.stats()).tokenRequests).toBeGreaterThanOrEqual(urls.length);
});

test("a page over the rate limit says so, with the time to wait, and recovers after it", async ({ page }) => {
  await signUpOnFaultSandbox(page, "limited");
  // A token (1 credit) and two listings (10 each) fit; the third listing does not.
  // The three pages must fit in one window, even on a loaded machine.
  await admin.setRateLimit({ credits: 25, windowSeconds: 15 });
  await page.goto("/webhook-groups");
  await expect(page.getByTestId("listing-table")).toBeVisible();
  await page.goto("/events");
  await expect(page.getByTestId("listing-table")).toBeVisible();

  // Another listing (the pages of one list share one read: lib/listing/page-block.ts).
  await page.goto("/webhook-groups?sort=-id");
  const limited = page.getByTestId("state-rate-limited");
  await expect(limited).toBeVisible();
  await expect(limited.getByTestId("retry-after")).toHaveText(/^\d+ seconds?$/);
  await expect(page.getByTestId("listing-table")).toHaveCount(0);

  // Once the window has passed, the retry link brings the rows.
  await page.waitForTimeout(15_500);
  await limited.getByRole("link", { name: /try again/i }).click();
  await expect(page.getByTestId("listing-table")).toBeVisible();
});

// Deadlines: a page render and an export each have a time budget.

test("a page whose API keeps timing out shows 'unavailable' at its budget (12 s), with a retry", async ({ page }) => {
  await signUpOnFaultSandbox(page, "slowapi");
  // Each answer takes longer than the client's own timeout (10 s): without the page budget the
  // render waited for three attempts.
  await admin.injectFaults({ count: 3, delayMs: 25_000, paths: "api" });
  const started = Date.now();
  // Not waiting for the load event: the document is not complete until the table's part is.
  await page.goto("/webhook-groups", { waitUntil: "commit" });
  // The page does not wait for the API: its title and toolbar come first, the table's place says it is loading.
  await expect(page.getByRole("heading", { name: "Webhook groups", level: 1 })).toBeVisible();
  await expect(page.getByTestId("listing-loading")).toBeVisible();
  // Waiting for the API would take its whole budget (12 s).
  expect(Date.now() - started, "the page waited for the API").toBeLessThan(10_000);
  await shoot(page, "listing-loading", false);
  const unavailable = page.getByTestId("state-unavailable");
  await expect(unavailable).toBeVisible({ timeout: 30_000 });
  expect(Date.now() - started).toBeLessThan(18_000);
  await expect(unavailable).toContainText("did not answer within 12 seconds");
  await admin.reset();
  await unavailable.getByRole("link", { name: "Try again" }).click();
  await expect(page.getByTestId("listing-table")).toBeVisible();
});

test("a person runs two exports at once: a third answers 429 until one ends; a slow export keeps sending heartbeats", async ({ page }) => {
  await signUpOnFaultSandbox(page, "exporter");
  await page.goto("/webhook-groups");
  await expect(page.getByTestId("listing-table")).toBeVisible();
  // The next two listing calls (the two exports' first pages) take 8 s.
  await admin.injectFaults({ count: 2, delayMs: 8_000, paths: "api" });
  const url = "/api/export/webhook-groups?format=csv";
  const first = page.request.get(url, { timeout: 60_000 });
  const second = page.request.get(url, { timeout: 60_000 });
  await page.waitForTimeout(1_500);
  const third = await page.request.get(url);
  expect(third.status()).toBe(429);
  expect(await third.json()).toEqual({ error: "You already have 2 exports running. Wait for one to finish, or cancel it, then start this one again." });

  for (const response of await Promise.all([first, second])) {
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("application/x-ndjson; charset=utf-8");
    const events = (await response.text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; rows?: number });
    // The first page took 8 s: the stream said so while it waited, then sent the file.
    expect(events[0].type).toBe("heartbeat");
    expect(events.map((event) => event.type)).toContain("start");
    expect(events.at(-1)).toMatchObject({ type: "end", rows: expect.any(Number) });
  }
  // Both ended: their slots are free again.
  const again = await page.request.get(url);
  expect(again.status()).toBe(200);
  expect((await again.text()).trim().split("\n").at(-1)).toContain('"type":"end"');
});

test("a cancelled export frees its slot", async ({ page }) => {
  await signUpOnFaultSandbox(page, "canceller");
  await page.goto("/webhook-groups");
  await expect(page.getByTestId("listing-table")).toBeVisible();
  await admin.injectFaults({ count: 4, delayMs: 15_000, paths: "api" });
  // Two exports from the page's button, each cancelled while it waits for its first page.
  for (let i = 0; i < 2; i++) {
    if (!(await page.getByTestId("export-csv").isVisible())) await page.getByTestId("export-menu").click();
    await page.getByTestId("export-csv").click();
    await expect(page.getByTestId("export-status")).toContainText("Exporting CSV");
    await page.getByTestId("export-cancel").click();
    await expect(page.getByTestId("export-status")).toHaveText("Export cancelled; nothing was saved.");
  }
  await admin.reset();
  // Had a cancelled export kept its slot, this one would be refused (429).
  await expect.poll(async () => (await page.request.get("/api/export/webhook-groups?format=json")).status(), { timeout: 10_000 }).toBe(200);
});

test("a low budget: every member sees a quiet notice with the reset; Settings shows the last hour's use by kind", async ({ page }) => {
  // The portal remembers a key's budget until its window resets, whoever uses the key: this test
  // spends the second demo account's, in a one-minute window, last, so no other test meets it.
  await signUpOnFaultSandbox(page, "lowbudget", OTHER_CREDENTIALS);
  // 100 credits a window: nine listings (90), and perhaps a token (1), leave 10 or 9: under 20 %.
  await admin.setRateLimit({ credits: 100, windowSeconds: 60 });
  // Nine listings that each need a read of their own (pages of one list would share one).
  for (const query of ["", "?sort=id", "?sort=-id", "?sort=name", "?sort=-name", "?sort=name%2Cid", "?sort=name%2C-id", "?sort=-name%2Cid", "?sort=-name%2C-id"]) {
    await page.goto(`/webhook-groups${query}`);
    await expect(page.getByTestId("listing-table")).toBeVisible();
  }
  await expect(page.getByTestId("low-budget")).toContainText(/(9|10) of 100 credits left for this key, until it resets in \d+ (seconds?|minutes?)/);
  await expect(page.getByTestId("data-age")).toBeVisible();
  await shoot(page, "listing-low-budget", false);

  await page.goto("/settings/budget");
  await expect(page.getByTestId("budget-credits-page")).toHaveText("90");
  await expect(page.getByTestId("budget-credits-export")).toHaveText("0");
  await expect(page.getByTestId("budget-usage").getByTestId("low-budget")).toBeVisible();
  await shoot(page, "settings-budget");
});
