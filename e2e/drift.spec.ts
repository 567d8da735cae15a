import { expect, test, type Page } from "@playwright/test";
import { createAdminClient } from "@/lib/sandbox/testing";
import { newTestUser, signUp } from "./helpers/auth";
import { E2E_PLANS_SANDBOX_URL, E2E_SANDBOX_ADMIN_SECRET, PLANS_DRIFT_ACCOUNT } from "./helpers/config";
import { trackingFromTheFirstCredential } from "./helpers/history";
import { fitsAndShoot, savePlansCredentials } from "./helpers/plans";

/**
 * Drift from what we applied (issue 37 §3), in Chromium against the production build: a plan is
 * applied in the UI, a person changes the record back in the EMS (the sandbox's admin edits play
 * that person), "Sync now", and the drift shows on Health and on the plan's page; Re-apply drafts
 * the plan that sets it again; Accept mutes it, saying who and when. Its own sandbox account
 * (PLANS_DRIFT_ACCOUNT): no other spec reads or writes it.
 */
test.describe.configure({ timeout: 240_000 });

const admin = createAdminClient(E2E_PLANS_SANDBOX_URL, E2E_SANDBOX_ADMIN_SECRET);

/** "Sync now" until it runs: the plan's own sync (after its apply) may still hold the tracker. */
async function syncNow(page: Page): Promise<void> {
  await expect(async () => {
    await page.goto("/settings/tracking");
    const section = page.getByTestId("history-section");
    await section.getByRole("button", { name: "Sync now" }).click();
    await expect(section.getByText(/^Synced: (\d+ changes? found|nothing changed since the last sync)\.$/)).toBeVisible({ timeout: 20_000 });
  }).toPass({ timeout: 90_000, intervals: [1_000, 2_000, 5_000] });
}

test("an applied URL changed back in the EMS shows as drift on Health and the plan; Re-apply drafts it again; Accept mutes it with who and when", async ({ page }) => {
  await admin.reset();
  const owner = newTestUser("drift");
  await signUp(page, owner);
  await savePlansCredentials(page, PLANS_DRIFT_ACCOUNT);
  // Saving the credentials started tracking (issue 37 §1): take the first snapshot now.
  await trackingFromTheFirstCredential(page, PLANS_DRIFT_ACCOUNT.groups);

  // Nothing has drifted yet: Health says so, in its own section.
  await page.goto("/health");
  await expect(page.getByTestId("drift-empty")).toBeVisible();

  // The owner (alone: no second reviewer) moves a webhook through a plan and applies it.
  await page.goto("/webhooks?sort=id&fields=id,name,url");
  const href = (await page.getByTestId("listing-results").locator("tbody tr a[href^='/webhooks/']").first().getAttribute("href"))!;
  const hookId = href.split("/").pop()!.split("?")[0];
  await page.goto(`/webhooks/${hookId}/edit`);
  const oldUrl = await page.getByLabel("URL").inputValue();
  const newUrl = `https://crm.example.org/moved/${hookId}/${Date.now()}`;
  await page.getByLabel("URL").fill(newUrl);
  await page.getByLabel("Plan title (optional)").fill("Move CRM hooks");
  await page.getByTestId("webhook-edit-submit").click();
  await expect(page).toHaveURL(/\/plans\/[0-9a-f-]{36}$/);
  const planUrl = page.url();
  await page.getByTestId("plan-submit").click();
  await page.getByTestId("plan-approve").click();
  await page.getByTestId("plan-apply").click();
  await page.getByRole("button", { name: "Apply now" }).click();
  await expect(page.getByTestId("plan-status")).toHaveText("Applied", { timeout: 30_000 });
  // Applied, and not drifted: the plan's page says so.
  await page.reload();
  await expect(page.getByTestId("drift-empty")).toBeVisible();

  // Someone puts the old URL back in the EMS's web app.
  await admin.applyEdits(PLANS_DRIFT_ACCOUNT.key, [{ kind: "set-url", webhookId: Number(hookId), url: oldUrl, by: "jane@example.com" }]);
  await syncNow(page);

  const sentence = new RegExp(`^The URL that plan “Move CRM hooks” set on webhook #${hookId} .* was changed in the EMS by jane@example\\.com\\.$`);
  await page.goto("/health");
  const section = page.getByTestId("drift-section");
  await expect(section.getByRole("heading", { name: "Drift from applied plans" })).toBeVisible();
  await expect(section.getByTestId("drift-counts")).toHaveText("1 open finding");
  const finding = section.getByTestId("drift-finding");
  await expect(finding).toHaveCount(1);
  await expect(finding.locator("p").first()).toHaveText(sentence);
  await expect(finding).toContainText("Changed ");
  // Names only: the URLs themselves are not part of it.
  await expect(finding).not.toContainText(oldUrl);
  await fitsAndShoot(page, "drift-health", () => section.scrollIntoViewIfNeeded());

  // The plan's page shows it too.
  await page.goto(planUrl);
  await expect(page.getByTestId("drift-finding")).toHaveCount(1);
  await expect(page.getByTestId("drift-finding").locator("p").first()).toHaveText(sentence);
  await fitsAndShoot(page, "drift-plan", () => page.getByTestId("drift-section").scrollIntoViewIfNeeded());

  // Syncing again adds no second finding.
  await syncNow(page);
  await page.goto("/health");
  await expect(page.getByTestId("drift-finding")).toHaveCount(1);

  // Re-apply drafts a plan that sets the plan's URL again, for review like any plan.
  await page.getByTestId("drift-reapply").click();
  await expect(page).toHaveURL(/\/plans\/[0-9a-f-]{36}$/);
  expect(page.url()).not.toBe(planUrl);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Re-apply “Move CRM hooks” on webhook #");
  await expect(page.getByTestId("plan-status")).toHaveText("Draft");
  const operation = page.getByTestId("plan-operation");
  await expect(operation).toHaveCount(1);
  await expect(operation).toContainText("Change the URL of webhook");
  await expect(operation.locator("del")).toHaveText(oldUrl);
  await expect(operation.locator("ins")).toHaveText(newUrl);
  await fitsAndShoot(page, "drift-reapply-plan");

  // Accept instead: muted, saying who accepted it and when; nothing left open.
  await page.goto("/health");
  await expect(page.getByTestId("drift-reapply-plan")).toBeVisible();
  await page.getByTestId("drift-accept").click();
  await expect(page.getByTestId("drift-accepted-by")).toContainText(`Accepted by ${owner.email}`);
  await expect(page.getByTestId("drift-counts")).toHaveText("None open · 1 accepted");
  await expect(page.getByTestId("drift-accept")).toHaveCount(0);
  await fitsAndShoot(page, "drift-accepted", () => page.getByTestId("drift-section").scrollIntoViewIfNeeded());
});
