import { expect, test, type Page } from "@playwright/test";
import { triggerLabel } from "@/lib/setup/triggers";
import { createAdminClient } from "@/lib/sandbox/testing";
import { E2E_PLANS_SANDBOX_URL, E2E_SANDBOX_ADMIN_SECRET, PLANS_FIXES_ACCOUNT } from "./helpers/config";
import { missingOf, readAccount, requirementAndWebhook } from "./helpers/fixes";
import { savePlansCredentials } from "./helpers/plans";
import { trackingFromTheFirstCredential } from "./helpers/history";
import { newTestUser, signUp } from "./helpers/auth";
import { shoot } from "./helpers/screenshots";
import { signUpWithSandbox } from "./listing-helpers";

// Checks that draft their own fixes (issue 37 §2), as a team uses them: a check's policy set in
// Settings, a sync ("Sync now"), and the portal's drafted plan waiting in Plans, by "EMS Portal on
// behalf of the team". The first test drafts on the embedded sandbox's demo account (drafting writes
// nothing to the EMS: the listing specs' data stays); the second applies its fix, so it uses an
// account of the plans sandbox of its own (PLANS_FIXES_ACCOUNT).
test.describe.configure({ timeout: 180_000 });

/** Sets one check's policy in Settings → Health checks. */
async function setPolicy(page: Page, ruleId: string, label: "Off" | "Tell us" | "Draft the fix"): Promise<void> {
  await page.goto("/settings/checks");
  const form = page.getByTestId(`check-policy-${ruleId}`);
  await form.getByLabel(label, { exact: true }).check();
  await form.getByRole("button", { name: "Save" }).click();
  const saved = {
    Off: "Check turned off for the team.",
    "Tell us": "The team is told of this check's new findings.",
    "Draft the fix": "The portal drafts this check's fix after each sync.",
  };
  await expect(page.getByText(saved[label])).toBeVisible();
}

test("a check set to draft its fix: after one sync its 18 findings are ONE plan, sent for review by EMS Portal on behalf of the team", async ({ page }) => {
  await signUpWithSandbox(page, "fixes");
  await setPolicy(page, "group-without-notification-emails", "Draft the fix");
  await page.goto("/settings/checks");
  await expect(page.getByTestId("check-policy-group-without-notification-emails").getByLabel("Draft the fix", { exact: true })).toBeChecked();
  // A check without a mechanical fix cannot draft.
  await expect(page.getByTestId("check-policy-required-trigger-missing").getByLabel("Draft the fix", { exact: true })).toBeDisabled();
  await shoot(page, "settings-check-policies");

  await trackingFromTheFirstCredential(page);
  await page.goto("/plans");
  const row = page.getByTestId("plans-list").getByRole("listitem").filter({ hasText: "Add a notification address: 18 findings" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("18 changes · EMS Portal on behalf of the team");
  await expect(row).toContainText("Waiting for review");
  await row.getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Add a notification address: 18 findings");
  await expect(page.getByTestId("plan-drafted-fix")).toContainText("Group serving live events has no notification emails");
  await expect(page.getByText(/18 changes · drafted by EMS Portal on behalf of the team/)).toBeVisible();
  // Its reviewer (the owner: alone, review is not required) may approve and apply it in one step.
  await expect(page.getByTestId("plan-approve-apply")).toBeVisible();
  await shoot(page, "drafted-plan");

  // A second sync with no new finding drafts nothing more.
  await page.goto("/settings/tracking");
  await page.getByTestId("history-section").getByRole("button", { name: "Sync now" }).click();
  await expect(page.getByText("Synced: nothing changed since the last sync.")).toBeVisible({ timeout: 30_000 });
  await page.goto("/plans");
  await expect(page.getByTestId("plans-list").getByRole("listitem").filter({ hasText: "Add a notification address" })).toHaveCount(1);
});

test("a live event without a required trigger gets a drafted plan within one sync; its reviewer approves and applies it in one step; the event's coverage is then complete; so does an event that goes live afterwards", async ({
  page,
}) => {
  // What the account holds, read from the EMS's API: a required trigger a live event misses, and
  // the webhook the team names for new events.
  const before = await readAccount(E2E_PLANS_SANDBOX_URL, PLANS_FIXES_ACCOUNT);
  const chosen = requirementAndWebhook(before);
  expect(chosen, "the fixes account has a live event missing a trigger that one webhook could serve").not.toBeNull();
  const { trigger, webhookId, events } = chosen!;

  await signUp(page, newTestUser("new-events"));
  await savePlansCredentials(page, PLANS_FIXES_ACCOUNT);
  await page.goto("/coverage");
  await page.getByTestId("required-triggers").locator("summary").click();
  await page.getByLabel(triggerLabel(trigger)).check();
  await page.getByRole("button", { name: "Save required triggers" }).click();
  await expect(page.getByText("Saved: 1 required trigger.")).toBeVisible();

  await page.goto("/settings/checks");
  await page.getByTestId("new-event-webhook-ids").fill(String(webhookId));
  await page.getByRole("button", { name: "Save webhooks for new events" }).click();
  await expect(page.getByText("Saved: new events go to 1 webhook.")).toBeVisible();

  await trackingFromTheFirstCredential(page);
  const title = `Add new events to the team's default webhooks: ${events.length} ${events.length === 1 ? "event" : "events"}`;
  await page.goto("/plans");
  await expect(page.getByTestId("plans-list").getByRole("listitem").filter({ hasText: title })).toContainText("EMS Portal on behalf of the team");
  // The reviewer hears of it where they already are: the inbox's count in the navigation, and the item.
  await expect(
    page
      .getByRole("navigation")
      .getByRole("link", { name: /^Inbox/ })
      .first(),
  ).toContainText("1");
  await page.goto("/inbox?show=unread");
  const item = page.getByTestId("inbox-item").filter({ hasText: title });
  await expect(item).toContainText("EMS Portal on behalf of the team drafted the fix");
  await shoot(page, "inbox-drafted-fix");
  await item.getByTestId("inbox-item-link").click();
  await expect(page.getByTestId("plan-drafted-fix")).toContainText("Live event misses a required trigger");

  await page.getByTestId("plan-approve-apply").click();
  await page.getByRole("button", { name: "Approve and apply now" }).click();
  await expect(page.getByTestId("plan-status")).toHaveText("Applied", { timeout: 60_000 });
  await expect(page.getByText(/approved by .* · applied by/)).toBeVisible();

  // In the EMS: the webhook now serves the event, and no live event misses the trigger.
  const after = await readAccount(E2E_PLANS_SANDBOX_URL, PLANS_FIXES_ACCOUNT);
  const hook = after.groups.flatMap((group) => group.webhooks ?? []).find((candidate) => candidate.id === webhookId)!;
  expect(hook.event_ids).toEqual(expect.arrayContaining(events));
  expect(missingOf(after, trigger)).toEqual([]);
  // And in the portal: Coverage, read again, lists no failing event.
  await page.goto("/coverage?only=failing");
  for (const eventId of events) await expect(page.locator(`[data-testid="coverage-row"][data-event-id="${eventId}"]`)).toHaveCount(0);

  // A new event goes live in the EMS (made in its web app: the sandbox's admin edits): the next
  // sync drafts its fix, the reviewer applies it in one step, and the new event is then covered.
  const [created] = await createAdminClient(E2E_PLANS_SANDBOX_URL, E2E_SANDBOX_ADMIN_SECRET).applyEdits(PLANS_FIXES_ACCOUNT.key, [
    { kind: "add-event", event: { name: `Launch night ${Date.now()}` }, by: "jane@example.com" },
  ]);
  const newEventId = created.eventId!;
  await page.goto("/settings/tracking");
  await page.getByTestId("history-section").getByRole("button", { name: "Sync now" }).click();
  await expect(page.getByTestId("history-section").getByText(/^Synced: /)).toBeVisible({ timeout: 30_000 });
  const newTitle = "Add new events to the team's default webhooks: 1 event";
  await page.goto("/inbox?show=unread");
  await page.getByTestId("inbox-item").filter({ hasText: newTitle }).getByTestId("inbox-item-link").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(newTitle);
  await page.getByTestId("plan-approve-apply").click();
  await page.getByRole("button", { name: "Approve and apply now" }).click();
  await expect(page.getByTestId("plan-status")).toHaveText("Applied", { timeout: 60_000 });
  const latest = await readAccount(E2E_PLANS_SANDBOX_URL, PLANS_FIXES_ACCOUNT);
  expect(latest.groups.flatMap((group) => group.webhooks ?? []).find((candidate) => candidate.id === webhookId)!.event_ids).toContain(newEventId);
  expect(missingOf(latest, trigger)).toEqual([]);
});
