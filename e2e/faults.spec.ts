import { expect, test, type Page } from "@playwright/test";
import { createAdminClient } from "@/lib/sandbox/testing";
import { newTestUser, signUp } from "./helpers/auth";
import { E2E_FAULT_SANDBOX_URL, E2E_SANDBOX_ADMIN_SECRET } from "./helpers/config";
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

/** A new person whose saved credentials point at the fault sandbox's demo account. */
async function signUpOnFaultSandbox(page: Page, prefix: string): Promise<void> {
  await signUp(page, newTestUser(prefix));
  await page.goto("/settings");
  await page.getByLabel("Base URL").fill(E2E_FAULT_SANDBOX_URL);
  await page.getByLabel("Consumer key").fill(DEMO.consumerKey);
  await page.getByLabel("Consumer secret").fill(DEMO.consumerSecret);
  await page.getByRole("button", { name: "Save credentials" }).click();
  await expect(page.getByText("Saved, encrypted (never shown)")).toBeVisible();
}

test("a token that expires mid-session never shows an error", async ({ page }) => {
  await signUpOnFaultSandbox(page, "expiry");
  await admin.setTokenLifetime(2);
  for (const url of ["/webhook-groups", "/events", "/webhook-groups?page=2", "/events?sort=-id", "/webhook-groups?sort=name"]) {
    await page.goto(url);
    await expect(page.getByTestId("listing-table")).toBeVisible();
    await expect(page.locator("[data-testid^=state-]")).toHaveCount(0);
    await page.waitForTimeout(2_500);
  }
  // Each page really needed a new token: the lifetime was shorter than the time between them.
  expect((await admin.stats()).tokenRequests).toBeGreaterThanOrEqual(5);
});

test("a page over the rate limit says so, with the time to wait, and recovers after it", async ({ page }) => {
  await signUpOnFaultSandbox(page, "limited");
  // A token (1 credit) and two listings (10 each) fit; the third listing does not.
  await admin.setRateLimit({ credits: 25, windowSeconds: 8 });
  await page.goto("/webhook-groups");
  await expect(page.getByTestId("listing-table")).toBeVisible();
  await page.goto("/events");
  await expect(page.getByTestId("listing-table")).toBeVisible();

  await page.goto("/webhook-groups?page=2");
  const limited = page.getByTestId("state-rate-limited");
  await expect(limited).toBeVisible();
  await expect(limited.getByTestId("retry-after")).toHaveText(/^\d+ seconds?$/);
  await expect(page.getByTestId("listing-table")).toHaveCount(0);

  // Once the window has passed, the retry link brings the rows.
  await page.waitForTimeout(8_500);
  await limited.getByRole("link", { name: /try again/i }).click();
  await expect(page.getByTestId("listing-table")).toBeVisible();
});
