// The README's pictures (docs/screenshot.png and docs/screenshots/*.png), taken as a person would
// see the portal: a production build, the embedded sandbox's demo account, a person with two saved
// views. `npm run docs:pictures` (after `npm run build`) takes them again; the suite skips this.
import { expect, test, type Page } from "@playwright/test";
import { newTestUser, signUp } from "./helpers/auth";
import { settleAnimations } from "./helpers/settle";
import { apiList, chooseSandbox } from "./listing-helpers";

test.skip(process.env.npm_lifecycle_event !== "docs:pictures", "takes the README's pictures: npm run docs:pictures");
test.describe.configure({ timeout: 240_000 });

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

async function picture(page: Page, file: string, size: { width: number; height: number }, fullPage = false): Promise<void> {
  await page.setViewportSize(size);
  // Settled: no pending fonts, transitions or loading states in the picture.
  await page.evaluate(() => document.fonts.ready);
  await settleAnimations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
  await page.screenshot({ path: file, fullPage });
}

async function saveView(page: Page, name: string): Promise<void> {
  await page.getByTestId("save-view-toggle").click();
  await page.getByTestId("save-view-form").getByLabel("Name").fill(name);
  await page.getByTestId("save-view-form").getByRole("button", { name: "Save view" }).click();
  await expect(page).toHaveURL(/view=/);
}

test("the README's pictures", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signUp(page, { ...newTestUser("ada"), name: "Ada Lovelace" });
  await chooseSandbox(page);

  // Two saved views; the second one changed since (a third sort level), so it shows its unsaved mark.
  await page.goto("/events?filter=status%3Dcancelled&sort=-start_date");
  await saveView(page, "Cancelled");
  await page.goto("/events?filter=status%3D*in*live%7Cdraft&filter=start_date%3E%3D2026-01-01&sort=-start_date,name");
  await saveView(page, "Live and draft, 2026 on");
  const dismiss = page.getByRole("button", { name: /Dismiss/ }).first();
  if (await dismiss.isVisible()) {
    await dismiss.click();
    await expect(page.getByTestId("first-run-checklist")).toHaveCount(0);
  }
  const url = new URL(page.url());
  url.searchParams.set("sort", "-start_date,name,status");
  await page.goto(`${url.pathname}${url.search}`);
  await expect(page.getByTestId("view-tabs")).toBeVisible();
  await picture(page, "docs/screenshot.png", DESKTOP);

  // A webhook group with several webhooks: its page.
  const groups = (await apiList("webhook-groups", "expand=webhooks&per-page=50")).items;
  const group = groups.find((item) => Array.isArray(item.webhooks) && item.webhooks.length >= 3) ?? groups[0]!;
  await page.goto(`/webhook-groups/${group.id}`);
  await expect(page.getByTestId("group-details")).toBeVisible();
  await picture(page, "docs/screenshots/group-detail-1440.png", DESKTOP);

  await page.goto("/settings/credentials");
  await expect(page.getByText("Connected").first()).toBeVisible();
  await picture(page, "docs/screenshots/settings-1440.png", DESKTOP, true);

  await page.setViewportSize(PHONE);
  await page.goto("/events?sort=-start_date");
  await expect(page.getByTestId("listing-table")).toBeVisible();
  await picture(page, "docs/screenshots/listing-phone-390.png", PHONE);

  // The palette with a search answered: webhooks and events by name, a saved view, actions.
  await page.setViewportSize(DESKTOP);
  await page.goto("/webhook-groups?filter=name%3D*contains*desk");
  await saveView(page, "Support desks");
  await page.goto("/events");
  await page.keyboard.press("Control+k");
  await page.getByTestId("palette-input").fill("desk");
  await expect(page.getByTestId("palette-webhook").first().or(page.getByTestId("palette-webhook-none"))).toBeVisible({ timeout: 15_000 });
  await picture(page, "docs/screenshots/palette-1440.png", DESKTOP);
  await page.keyboard.press("Escape");

  // One more kind of entry for the audit log: an invitation.
  await page.goto("/team");
  await page.getByRole("button", { name: "Create invitation link" }).click();
  await expect(page.getByTestId("invitation-link")).toBeVisible();
  await page.goto("/audit");
  await expect(page.getByTestId("audit-export")).toBeVisible();
  await picture(page, "docs/screenshots/audit-1440.png", DESKTOP);
});
