import { expect, type Page } from "@playwright/test";
import { E2E_PLANS_SANDBOX_URL } from "./config";

/** Saves credentials for one of the plans sandbox's accounts (e2e/helpers/config.ts) as the signed-in person. */
export async function savePlansCredentials(page: Page, account: { key: string; secret: string }): Promise<void> {
  await page.goto("/settings/credentials");
  await page.getByLabel("Base URL").fill(E2E_PLANS_SANDBOX_URL);
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
