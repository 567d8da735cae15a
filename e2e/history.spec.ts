import { expect, test } from "@playwright/test";
import { OTHER_CREDENTIALS } from "@/lib/sandbox/testing";
import { newTestUser, signUp } from "./helpers/auth";
import { editInTheEms, trackingFromTheFirstCredential } from "./helpers/history";
import { shoot } from "./helpers/screenshots";
import { apiList, chooseSandbox, signUpWithSandbox } from "./listing-helpers";

// Change history as a team uses it: turn tracking on, someone edits the account in the EMS (the
// sandbox's edit control plays that person), "Sync now", and the change shows in the Changes feed,
// on the group's timeline, and "as of" before it the group shows what it was, and offers the plan
// that puts it back (drafted only: nothing is written to the account). The second demo
// account is used: the listing and health specs read the first one, whose data must not move.
test.describe.configure({ timeout: 120_000 });

const OTHER = OTHER_CREDENTIALS;

test("turn on tracking, a webhook's URL is changed in the EMS, sync now: the feed, the group's timeline and its past say so", async ({ page }) => {
  await signUpWithSandbox(page, "history", "other");
  // Saving the credentials started tracking: Changes says since when, before anything changed.
  await page.goto("/changes");
  await expect(page.getByTestId("changes-tracking-since")).toContainText("Tracking since");
  const section = await trackingFromTheFirstCredential(page, 45);
  await page.goto("/changes");
  await expect(page.getByTestId("changes-tracking-since")).toContainText("· last sync");
  await expect(page.getByTestId("changes-empty")).toContainText("No change yet.");
  await shoot(page, "changes-tracking-since");
  await page.goto("/settings/tracking");

  // The webhook a person is about to edit, straight from the API.
  const { items } = await apiList("webhook-groups", "expand=webhooks&sort=id&per-page=5", OTHER);
  const group = items.find((candidate) => Array.isArray(candidate.webhooks) && (candidate.webhooks as unknown[]).length > 0)!;
  const hook = (group.webhooks as { id: number; name: string; url: string }[])[0]!;
  // A moment after the first snapshot and before the edit (the "as of" below is to the second).
  await page.waitForTimeout(1_100);
  const before = new Date();
  await page.waitForTimeout(1_100);
  const newUrl = `https://hooks.example.com/e2e-${Date.now()}`;
  await editInTheEms([{ kind: "set-url", webhookId: hook.id, url: newUrl, by: "jane.doe@example.com" }]);

  await section.getByRole("button", { name: "Sync now" }).click();
  await expect(section.getByText(/Synced: \d+ changes? found\./)).toBeVisible({ timeout: 30_000 });
  await shoot(page, "settings-history");

  await page.getByRole("link", { name: "Changes", exact: true }).click();
  await expect(page).toHaveURL(/\/changes$/);
  const entry = page.getByTestId("change-entry").filter({ hasText: newUrl });
  await expect(entry.getByTestId("change-badge")).toHaveText("URL");
  await expect(entry.getByTestId("change-diff")).toContainText(hook.url);
  await expect(entry).toContainText("by jane.doe@example.com in the EMS");
  await shoot(page, "changes-feed");

  // Filter by the kind of change: a filter that excludes it shows none, in the URL.
  await page.getByTestId("changes-kind-chips").getByRole("link", { name: "Added", exact: true }).click();
  await expect(page).toHaveURL(/change=added/);
  await expect(page.getByTestId("change-entry").filter({ hasText: newUrl })).toHaveCount(0);

  // The entry links to the webhook's card on its group's page, whose timeline has it too.
  await page.goto("/changes");
  await page.getByTestId("change-entry").filter({ hasText: newUrl }).getByRole("link").first().click();
  await expect(page).toHaveURL(new RegExp(`/webhook-groups/${String(group.id)}#webhook-${hook.id}$`));
  const history = page.getByTestId("group-history");
  await expect(history.getByTestId("change-entry").filter({ hasText: newUrl })).toBeVisible();
  await shoot(page, "group-history", false);

  // As of the moment before the edit, the webhook had its old URL.
  await history.getByLabel("As of (UTC)").fill(before.toISOString().slice(0, 19));
  await history.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/asOf=/);
  const past = page.getByTestId("group-as-of");
  await expect(past).toContainText(hook.url);
  await expect(past).not.toContainText(newUrl);
  await shoot(page, "group-as-of");

  // Putting it back drafts a plan (nothing changes before it is reviewed): the URL back to what it was.
  await past.getByTestId("group-back-to").click();
  await expect(page).toHaveURL(/\/plans\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("back as of");
  await expect(page.getByTestId("plan-status")).toHaveText("Draft");
  const operation = page.getByTestId("plan-operation");
  await expect(operation).toHaveCount(1);
  await expect(operation).toContainText("Change the URL of webhook");
  await expect(operation.locator("del")).toHaveText(newUrl);
  await expect(operation.locator("ins")).toHaveText(hook.url);
  await shoot(page, "plan-group-back-to");
});

test("a member reads an account's history only with their own credentials for it; before, /changes says why and where to add them", async ({ page, browser }) => {
  // The owner tracks the second demo account.
  await signUpWithSandbox(page, "history-owner", "other");
  await trackingFromTheFirstCredential(page);
  await page.goto("/team");
  await page.getByLabel("Role", { exact: true }).selectOption({ label: "Member" });
  await page.getByRole("button", { name: "Create invitation link" }).click();
  await expect(page.getByTestId("invitation-link")).toHaveValue(/\/invite\/[A-Za-z0-9_-]{43}$/);
  const token = (await page.getByTestId("invitation-link").inputValue()).split("/invite/")[1]!;

  const memberContext = await browser.newContext();
  try {
    const member = await memberContext.newPage();
    await signUp(member, newTestUser("history-member"), { invite: token });

    // No credentials: the rule and the way in, not an error page and not the feed.
    await member.goto("/changes");
    const refused = member.getByTestId("changes-refused");
    await expect(refused).toContainText(/Change history of .+ is visible to members who have saved credentials for that account, and to owners and admins\./);
    await expect(member.getByTestId("changes-filters")).toHaveCount(0);
    await refused.getByRole("link", { name: "Settings" }).click();
    await expect(member).toHaveURL(/\/settings/);

    // Credentials of another account (the first demo account): still refused.
    await chooseSandbox(member, "demo");
    await member.goto("/changes");
    await expect(member.getByTestId("changes-refused")).toBeVisible();
    await expect(member.getByTestId("changes-filters")).toHaveCount(0);

    // Their own credentials of the tracked account: the feed.
    await member.goto("/settings/credentials");
    await member.getByRole("button", { name: "Switch to the built-in sandbox" }).click();
    await member.getByLabel("Second demo account").check();
    await member.getByRole("button", { name: "Use the sandbox" }).click();
    await expect(member.getByTestId("sandbox-quick-start-success")).toBeVisible({ timeout: 30_000 });
    await member.goto("/changes");
    await expect(member.getByTestId("changes-filters")).toBeVisible();
    await expect(member.getByTestId("changes-refused")).toHaveCount(0);
  } finally {
    await memberContext.close();
  }
});
