import { expect, test } from "@playwright/test";
import { createAdminClient } from "@/lib/sandbox/testing";
import { newTestUser, signUp } from "./helpers/auth";
import { E2E_PLANS_SANDBOX_URL, E2E_SANDBOX_ADMIN_SECRET, PLANS_LARGE_ACCOUNT, PLANS_PROGRESS_ACCOUNT } from "./helpers/config";
import { draftHeaderOverList, fitsAndShoot, savePlansCredentials } from "./helpers/plans";

/**
 * Plans at the sizes people notice (issue 27 §3): a bulk change of more than 1,000 webhooks (what it
 * costs before anyone submits it, 100 changes a page, grouped by group, the impact), and a plan
 * while it is being applied (live progress; Health and Coverage say their figures are being
 * updated). Each test has a plans-sandbox account of its own (e2e/helpers/config.ts); the progress
 * test slows only its own account's writes.
 */

const admin = createAdminClient(E2E_PLANS_SANDBOX_URL, E2E_SANDBOX_ADMIN_SECRET);

/** The account's webhooks (enabled=1: 1,076 of the large account's 1,158) as a list's URL selects them. */
const ENABLED_WEBHOOKS = "/webhooks?filter=enabled%3D1&sort=id&fields=id,name,url,enabled&per-page=50";

test.describe("plans at size", () => {
  test("a bulk change of more than 1,000 webhooks: its cost before submitting, 100 changes a page by group, the impact, at 1,440 and 390 px", async ({ page }) => {
    test.setTimeout(120_000);
    await signUp(page, newTestUser("large"));
    await savePlansCredentials(page, PLANS_LARGE_ACCOUNT);

    await page.goto(ENABLED_WEBHOOKS);
    await expect(page.getByTestId("filter-chip")).toContainText("Status is yes");
    await expect(page.getByTestId("listing-total")).toContainText("of 1,076 webhooks");
    const listed = Date.now();
    const { total, submittedAt } = await draftHeaderOverList(page, ENABLED_WEBHOOKS, "Trace every enabled webhook");
    expect(total).toBeGreaterThan(1000);
    await expect(page).toHaveURL(/\/plans\/[0-9a-f-]{36}$/, { timeout: 60_000 });
    // Measured for the report (CI keeps the output): the list, Change these…, and drafting to the plan page.
    console.log(`[timing] ${total} webhooks: list → plan page ${Date.now() - listed} ms, of which drafting (submit → plan page) ${Date.now() - submittedAt} ms`);

    // Before anyone submits it: how big it is, what it costs and how long it takes.
    const large = page.getByTestId("plan-large");
    await expect(large).toContainText("A large plan: more than 1,000 changes");
    await expect(large).toContainText(`It makes ${total.toLocaleString("en-US")} changes: ${(2 * total).toLocaleString("en-US")} credits of the API budget`);
    await expect(large).toContainText(/(about \d+ (minutes?|hours)|under a minute) at the current budget/);
    // 2 credits a change (read, then write) is more than one window of 2,000 holds.
    await expect(large).toContainText(/waiting for \d+ new rate-limit windows?\./);
    await expect(page.getByTestId("plan-cost")).toContainText(`${(2 * total).toLocaleString("en-US")} credits`);
    await expect(page.getByTestId("plan-impact")).toContainText(/^Fixes (no findings|[\d,]+ findings?), adds (none|[\d,]+ findings?)\./);
    expect(await page.content()).not.toContain("e2e-trace-value-5b1c");

    // 100 a page, grouped by group, the pages reachable.
    const pages = Math.ceil(total / 100);
    await expect(page.getByRole("heading", { name: `Changes (page 1 of ${pages})` })).toBeVisible();
    await expect(page.getByTestId("plan-operation")).toHaveCount(100);
    await expect(page.getByTestId("plan-operation").first()).toContainText("1.");
    await expect(page.getByTestId("plan-operation").first().locator("ins")).toContainText("X-Portal-Trace");
    const groupHeadings = page.locator("section[aria-labelledby='operations-heading'] h3");
    expect(await groupHeadings.count()).toBeGreaterThan(10);
    await fitsAndShoot(page, "plan-large-top");
    await fitsAndShoot(page, "plan-large-diff", () => page.locator("#step-60").evaluate((element) => element.scrollIntoView({ block: "center" })));
    const pager = page.getByRole("navigation", { name: "Pages of changes", exact: true });
    const pagerBelow = page.getByRole("navigation", { name: "Pages of changes, below them" });
    await expect(pager).toContainText(`1–100 of ${total.toLocaleString("en-US")} changes`);
    await expect(pager.getByRole("link", { name: `Page ${pages}` })).toBeVisible();
    await fitsAndShoot(page, "plan-large-pager", () => pagerBelow.evaluate((element) => element.scrollIntoView({ block: "end" })));

    await pagerBelow.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/\?page=2#changes$/);
    await expect(page.getByRole("heading", { name: `Changes (page 2 of ${pages})` })).toBeVisible();
    await expect(page.getByTestId("plan-operation")).toHaveCount(100);
    await expect(page.getByTestId("plan-operation").first()).toContainText("101.");
    await expect(pager.locator("[aria-current=page]")).toHaveText("Page 2");
    await fitsAndShoot(page, "plan-large-page2", () => page.locator("#changes").evaluate((element) => element.scrollIntoView({ block: "start" })));
    // The last page, straight from the pager: what is left over after the full pages.
    await pager.getByRole("link", { name: `Page ${pages}` }).click();
    await expect(page.getByRole("heading", { name: `Changes (page ${pages} of ${pages})` })).toBeVisible();
    await expect(page.getByTestId("plan-operation")).toHaveCount(total - (pages - 1) * 100);
  });

  test("a plan being applied shows its live progress, step by step, at 1,440 and 390 px", async ({ page }) => {
    test.setTimeout(120_000);
    // One owner: a team with fewer than two owners and admins approves its own plans.
    await signUp(page, newTestUser("progress"));
    await savePlansCredentials(page, PLANS_PROGRESS_ACCOUNT);
    const { total } = await draftHeaderOverList(page, "/webhooks?sort=id&fields=id,name,url&per-page=50", "Trace the progress account");
    await expect(page).toHaveURL(/\/plans\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    await expect(page.getByTestId("plan-operation")).toHaveCount(total);
    await page.getByTestId("plan-submit").click();
    await expect(page.getByTestId("plan-status")).toHaveText("Waiting for review");
    await page.getByTestId("plan-approve").click();
    await expect(page.getByTestId("plan-status")).toHaveText("Approved");

    // Every write of this account answers 400 ms late: long enough to see the plan half done.
    // (Scoped to the account, and each used up by one write: nothing is left for other tests.)
    await admin.injectFaults({ count: total, delayMs: 400, paths: "write", account: PLANS_PROGRESS_ACCOUNT.key });
    await page.getByTestId("plan-apply").click();
    await page.getByRole("button", { name: "Apply now" }).click();
    await expect(page.getByTestId("plan-status")).toHaveText("Applying", { timeout: 15_000 });
    const progress = page.getByTestId("plan-progress");
    const partly = new RegExp(`^([1-9]|[1-9]\\d+) of ${total} steps done$`);
    await expect(progress.getByTestId("plan-progress-count")).toHaveText(partly, { timeout: 20_000 });
    // The words and the bar say the same, read at one instant (the page refreshes every 2 s).
    const seen = await progress.evaluate((element) => ({
      text: element.querySelector("[data-testid=plan-progress-count]")!.textContent!,
      bar: (element.querySelector("[data-testid=plan-progress-bar]") as HTMLProgressElement).value,
    }));
    expect(seen.text).toMatch(partly);
    expect(String(seen.bar)).toBe(seen.text.split(" ")[0]);
    await expect(progress.getByTestId("plan-progress-current")).toHaveText(/^Now: step \d+$/);
    // Meanwhile Health and Coverage show the figures they had and say they are being updated
    // (lib/setup/stored-results.ts: not worked out again after each write).
    const other = await page.context().newPage();
    for (const path of ["/health", "/coverage"]) {
      await other.goto(path);
      await expect(other.getByTestId("setup-updating")).toBeVisible();
      await expect(other.getByTestId("setup-updating")).toContainText("a plan is being applied to this account");
      await fitsAndShoot(other, `${path.slice(1)}-updating`);
    }
    await expect(page.getByTestId("step-state").filter({ hasText: "Done" }).first()).toBeVisible();
    await expect(page.getByTestId("step-state").filter({ hasText: "To do" }).first()).toBeVisible();
    await fitsAndShoot(page, "plan-progress-top");
    await fitsAndShoot(page, "plan-progress-steps", () =>
      page
        .getByTestId("step-state")
        .filter({ hasText: /Sending|To do/ })
        .first()
        .evaluate((element) => element.scrollIntoView({ block: "center" })),
    );

    await expect(page.getByTestId("plan-status")).toHaveText("Applied", { timeout: 60_000 });
    await expect(progress).toContainText(`${total} of ${total} steps done`);
    await expect(progress.getByTestId("plan-progress-current")).toHaveCount(0);
    // Once it stopped, worked out again: no note.
    await other.goto("/health");
    await expect(other.getByTestId("health-counts")).toBeVisible();
    await expect(other.getByTestId("setup-updating")).toHaveCount(0);
    await other.close();
  });
});
