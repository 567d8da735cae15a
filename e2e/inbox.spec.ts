import { expect, test, type Page } from "@playwright/test";
import { PLANS_INBOX_ACCOUNT } from "./helpers/config";
import { ownerAndAdmin } from "./helpers/plans";
import { shoot } from "./helpers/screenshots";

/**
 * The inbox (issue 37 §4) in Chromium against the production build and the plans sandbox over HTTP:
 * an owner sends a plan for review, the admin's navigation counts it, the admin opens it from the
 * inbox and approves and applies it; the owner reads "approved" in their inbox and marks it read; the
 * admin undoes the applied plan at once, without a second approval, and the plan reads "Undone".
 */

/** A title long enough to wrap, in more than one script. */
const TITLE = "Rename the CRM hook for Kraków — Zürich ✓ 東京 before the spring release, as agreed with the registrations team";

const inboxLink = (page: Page) =>
  page
    .getByRole("navigation")
    .getByRole("link", { name: /^Inbox/ })
    .first();

test("a plan's review and outcome reach people through the inbox; an undo of a recent plan applies without a second approval and the plan reads Undone", async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  const { adminPage, adminContext } = await ownerAndAdmin(page, browser, PLANS_INBOX_ACCOUNT, "inbox-");

  // Nothing yet: an empty inbox that says what will come.
  await adminPage.goto("/inbox");
  await expect(adminPage.getByTestId("inbox-empty")).toContainText("Your inbox is empty");
  await shoot(adminPage, "inbox-empty");

  // The owner drafts a rename of the first webhook and sends it for review.
  await page.goto("/webhooks?sort=id&fields=id,name,url");
  const href = (await page.getByTestId("listing-results").locator("tbody tr a[href^='/webhooks/']").first().getAttribute("href"))!;
  const hookId = href.split("/").pop()!.split("?")[0];
  await page.goto(`/webhooks/${hookId}/edit`);
  await page.getByLabel("Name", { exact: true }).fill(`Renamed ${Date.now()} — Kraków`);
  await page.getByLabel("Plan title (optional)").fill(TITLE);
  await page.getByTestId("webhook-edit-submit").click();
  await expect(page).toHaveURL(/\/plans\/[0-9a-f-]{36}$/);
  const planUrl = page.url();
  await page.getByTestId("plan-submit").click();
  await expect(page.getByTestId("plan-status")).toHaveText("Waiting for review");

  // The admin's navigation counts one unread item; the inbox names the plan; it opens the plan.
  await adminPage.goto("/webhooks");
  await expect(inboxLink(adminPage)).toContainText("1");
  await expect(inboxLink(adminPage)).toContainText("1 unread item in your inbox");
  await inboxLink(adminPage).click();
  await expect(adminPage).toHaveURL(/\/inbox$/);
  const waiting = adminPage.getByTestId("inbox-item").first();
  await expect(waiting).toContainText(`sent the plan “${TITLE}” for your review.`);
  await waiting.getByTestId("inbox-item-link").click();
  await expect(adminPage).toHaveURL(planUrl);
  await adminPage.getByTestId("plan-approve").click();
  await expect(adminPage.getByTestId("plan-status")).toHaveText("Approved");
  // Approved: nothing waits for the admin any more.
  await adminPage.goto("/inbox?show=unread");
  await expect(adminPage.getByTestId("inbox-empty")).toContainText("Nothing unread");
  await adminPage.goto(planUrl);
  await adminPage.getByTestId("plan-apply").click();
  await adminPage.getByRole("button", { name: "Apply now" }).click();
  await expect(adminPage.getByTestId("plan-status")).toHaveText("Applied", { timeout: 30_000 });

  // The owner reads "approved" (and "applied") in their inbox, and marks the approval read.
  await page.goto("/webhooks");
  await expect(inboxLink(page)).toContainText("2 unread items in your inbox");
  await inboxLink(page).click();
  const approved = page.getByTestId("inbox-item").filter({ hasText: "approved your plan" });
  await expect(approved).toContainText(`approved your plan “${TITLE}”.`);
  await expect(page.getByTestId("inbox-item").filter({ hasText: "was applied by" })).toHaveCount(1);
  await shoot(page, "inbox");
  await approved.getByTestId("inbox-mark-read").click();
  await expect(approved).toHaveAttribute("data-read", "true");
  await expect(page.getByTestId("inbox-summary")).toContainText("1 unread item.");
  await expect(inboxLink(page)).toContainText("1 unread item in your inbox");
  await page.goto("/inbox?show=unread");
  await expect(page.getByTestId("inbox-item")).toHaveCount(1);
  await expect(page.getByTestId("inbox-item")).toContainText("was applied by");

  // The admin undoes it minutes after it applied: applied at once, no second approval.
  await adminPage.goto(planUrl);
  await adminPage.getByTestId("plan-undo").click();
  await adminPage.waitForURL((address) => address.href !== planUrl && /^\/plans\/[0-9a-f-]{36}$/.test(address.pathname));
  await expect(adminPage.getByTestId("plan-approve")).toHaveCount(0);
  await adminPage.getByTestId("plan-apply-undo").click();
  // Exact: the button that opened the question ("Apply undo now") holds the same words.
  await adminPage.getByTestId("confirm-dialog").getByRole("button", { name: "Undo now", exact: true }).click();
  await expect(adminPage.getByTestId("plan-status")).toHaveText("Applied", { timeout: 30_000 });

  // The plan reads "Undone", on its page and in the list; the owner is told.
  await page.goto(planUrl);
  await expect(page.getByTestId("plan-status").first()).toHaveText("Undone");
  await shoot(page, "plan-undone", false);
  await page.goto("/plans?status=reverted");
  await expect(page.getByTestId("plans-list").getByRole("listitem").filter({ hasText: TITLE }).getByTestId("plan-status")).toHaveText("Undone");
  await page.goto("/inbox");
  await expect(page.getByTestId("inbox-item").first()).toContainText("without a second approval");
  await shoot(page, "inbox-after-undo");
  await page.getByTestId("inbox-mark-all-read").click();
  await expect(page.getByTestId("inbox-summary")).toContainText("Nothing unread.");

  // The email and Slack choices.
  await page.goto("/inbox/preferences");
  await expect(page.getByLabel("A plan waits for your review: by email")).toBeChecked();
  await expect(page.getByLabel("Your plan was applied: by email")).not.toBeChecked();
  await page.getByLabel("Your plan was applied: by email").check();
  await page.getByTestId("inbox-preferences-save").click();
  await expect(page.getByTestId("inbox-preferences")).toContainText("Saved.");
  await page.reload();
  await expect(page.getByLabel("Your plan was applied: by email")).toBeChecked();
  await shoot(page, "inbox-preferences");
  await adminContext.close();
});
