import { expect, type Browser, type Page } from "@playwright/test";
import { newTestUser, signUp } from "./auth";
import { E2E_PLANS_SANDBOX_URL } from "./config";

/** Saves credentials for one of the plans sandbox's accounts (e2e/helpers/config.ts), or another sandbox's, as the signed-in person. */
export async function savePlansCredentials(page: Page, account: { key: string; secret: string }, baseUrl = E2E_PLANS_SANDBOX_URL): Promise<void> {
  await page.goto("/settings/credentials");
  await page.getByLabel("Base URL").fill(baseUrl);
  await page.getByLabel("Consumer key").fill(account.key);
  await page.getByLabel("Consumer secret").fill(account.secret);
  await page.getByRole("button", { name: "Save credentials" }).click();
  await expect(page.getByTestId("credential-form-success")).toContainText("Connected and saved");
}

/**
 * At 1,440 and 390 px: nothing on the page wider than the screen; with E2E_SCREENSHOTS_DIR set, a
 * picture of the screen (not the whole page) after `scrollTo` brought the part worth seeing into view.
 */
export async function fitsAndShoot(page: Page, name: string, scrollTo?: () => Promise<void>): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS_DIR;
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `page width at ${width} px`).toBeLessThanOrEqual(width);
    if (scrollTo) await scrollTo();
    else await page.evaluate(() => window.scrollTo(0, 0));
    if (dir) await page.screenshot({ path: `${dir}/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

/** Opens the list at `listUrl`, checks how many it selects, and drafts "set a header" over them with Change these…. */
export async function draftHeaderOverList(page: Page, listUrl: string, title: string): Promise<{ total: number; submittedAt: number }> {
  await page.goto(listUrl);
  const total = Number((await page.getByTestId("listing-total").innerText()).match(/of ([\d,]+) webhooks/)![1].replace(/,/g, ""));
  await page.getByTestId("change-these").click();
  await expect(page).toHaveURL(/\/plans\/new\?resource=webhooks/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Change ${total.toLocaleString("en-US")} webhooks`);
  await page.getByLabel("Change", { exact: true }).selectOption({ label: "Set or rotate a header value" });
  await page.getByLabel("Header name").fill("X-Portal-Trace");
  await page.getByLabel("New value").fill("e2e-trace-value-5b1c");
  await page.getByLabel("Plan title (optional)").fill(title);
  if (total > 1000) {
    await expect(page.getByTestId("selection-large")).toContainText(`up to ${(2 * total).toLocaleString("en-US")} credits`);
    await fitsAndShoot(page, "plan-large-form");
  }
  const submittedAt = Date.now();
  await page.getByTestId("bulk-edit-submit").click();
  return { total, submittedAt };
}

/**
 * A team of two for review: `page` signs up an owner, invites an admin who signs up in a browser
 * context of their own, and both save credentials for `account`.
 */
export async function ownerAndAdmin(page: Page, browser: Browser, account: { key: string; secret: string }, prefix = "") {
  const owner = newTestUser(`${prefix}owner`);
  await signUp(page, owner);
  await page.goto("/team");
  await page.getByLabel("Role", { exact: true }).selectOption({ label: "Admin" });
  await page.getByRole("button", { name: "Create invitation link" }).click();
  const link = await page.getByTestId("invitation-link").inputValue();
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  const admin = newTestUser(`${prefix}admin`);
  await signUp(adminPage, admin, { invite: new URL(link).pathname.split("/").pop() });
  await savePlansCredentials(page, account);
  await savePlansCredentials(adminPage, account);
  return { owner, admin, adminPage, adminContext };
}
