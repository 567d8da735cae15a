import { expect, type Locator, type Page } from "@playwright/test";
import { createAdminClient, OTHER_CREDENTIALS, type AppliedEdit, type EditInput } from "@/lib/sandbox/testing";
import { E2E_BASE_URL, E2E_SANDBOX_ADMIN_SECRET } from "./config";

/**
 * Change tracking as a new team has it (issue 37 §1): saving the sandbox's credentials started it,
 * with no switch to find. Opens Settings → Change tracking, checks it is on, and takes the first
 * snapshot now ("Sync now") rather than waiting for the schedule's next minute; returns the section.
 */
export async function trackingFromTheFirstCredential(page: Page, groups: number | null = null): Promise<Locator> {
  await page.goto("/settings/tracking");
  const section = page.getByTestId("history-section");
  await expect(section.getByTestId("tracker-status")).toHaveText("Tracking");
  await expect(section.getByRole("button", { name: "Turn on tracking" })).toHaveCount(0);
  await section.getByRole("button", { name: "Sync now" }).click();
  // The schedule may have taken the first snapshot already: then this is a sync with no change.
  const counted = groups === null ? "\\d+" : String(groups);
  await expect(section.getByTestId("tracker-last-run")).toContainText(new RegExp(`(First snapshot: |No changes in )${counted} groups`), { timeout: 30_000 });
  return section;
}

/** Edits the sandbox's second account (the history specs') as a person in the EMS's web app would. */
export function editInTheEms(edits: EditInput[]): Promise<AppliedEdit[]> {
  return createAdminClient(`${E2E_BASE_URL}/sandbox`, E2E_SANDBOX_ADMIN_SECRET).applyEdits(OTHER_CREDENTIALS.consumerKey, edits);
}
