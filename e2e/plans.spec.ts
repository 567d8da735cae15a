import { expect, test, type Page } from "@playwright/test";
import { newTestUser, signUp } from "./helpers/auth";
import { PLANS_ACCOUNTS } from "./helpers/config";
import { ownerAndAdmin, savePlansCredentials as saveCredentials } from "./helpers/plans";
import { shoot } from "./helpers/screenshots";

/**
 * Changing the EMS through a reviewed plan (issue 27), in Chromium against the production build and a
 * sandbox over HTTP. Each test writes to its own sandbox account (e2e/helpers/config.ts), never to
 * the demo account the listing specs read.
 */

/** An owner and, in a browser of their own, an admin of the same team; both with the account's credentials. */

async function firstWebhook(page: Page): Promise<{ id: string; url: string }> {
  await page.goto("/webhooks?sort=id&fields=id,name,url");
  const link = page.getByTestId("listing-results").locator("tbody tr a[href^='/webhooks/']").first();
  const href = (await link.getAttribute("href"))!;
  const id = href.split("/").pop()!.split("?")[0];
  await page.goto(`/webhooks/${id}/edit`);
  return { id, url: await page.getByLabel("URL").inputValue() };
}

test.describe("change plans", () => {
  test("an address whose text before “@” poses as its host is said on the plan, under the change and above it, before anyone approves it", async ({ page }) => {
    await signUp(page, newTestUser("warned"));
    await saveCredentials(page, PLANS_ACCOUNTS[5]);
    await firstWebhook(page);
    await page.getByLabel("URL").fill("https://legit.example.com@evil.example/in");
    await page.getByTestId("webhook-edit-submit").click();
    await expect(page).toHaveURL(/\/plans\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId("plan-delivery-warnings")).toContainText("One change below sends");
    await expect(page.getByTestId("step-warnings")).toContainText(
      "The address starts with “legit.example.com@”, which reads like a host but is not: deliveries go to evil.example.",
    );
    await shoot(page, "plan-delivery-warnings");
  });

  test("edit a URL → plan with its diff → the author cannot approve → a second person approves and applies → the EMS holds it → undo restores it", async ({
    page,
    browser,
  }) => {
    // Two people, two applies and an undo: minutes on a busy machine.
    test.setTimeout(360_000);
    const { adminPage, adminContext } = await ownerAndAdmin(page, browser, PLANS_ACCOUNTS[0]);
    const { id, url } = await firstWebhook(page);
    // Unique per attempt: a retry after a partly run attempt still changes something.
    const newUrl = `https://moved.example.org/e2e/${id}/${Date.now()}`;

    // The owner drafts: a bad URL first keeps what was typed and says why.
    await page.getByLabel("URL").fill("ftp://nope.example.org");
    await page.getByLabel("Plan title (optional)").fill("Move the hook");
    await page.getByTestId("webhook-edit-submit").click();
    await expect(page.locator("#field-url-error")).toContainText("http or https");
    await expect(page.getByLabel("Plan title (optional)")).toHaveValue("Move the hook");
    await shoot(page, "plan-edit-form-error");
    await page.getByLabel("URL").fill(newUrl);
    await page.getByTestId("webhook-edit-submit").click();
    await expect(page).toHaveURL(/\/plans\/[0-9a-f-]{36}$/);
    const planUrl = page.url();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Move the hook");
    await expect(page.getByTestId("plan-status")).toHaveText("Draft");
    const operation = page.getByTestId("plan-operation");
    await expect(operation).toHaveCount(1);
    await expect(operation).toContainText("Change the URL of webhook");
    await expect(operation.locator("del")).toHaveText(url);
    await expect(operation.locator("ins")).toHaveText(newUrl);
    await expect(page.getByTestId("plan-impact")).toContainText(/^Fixes/);
    await expect(page.getByTestId("plan-cost")).toContainText("2 credits");
    await shoot(page, "plan-draft");

    await page.getByTestId("plan-submit").click();
    await expect(page.getByTestId("plan-status")).toHaveText("Waiting for review");
    await expect(page.getByTestId("plan-approve")).toHaveCount(0);
    await expect(page.getByText("You drafted this plan: another owner or admin approves it.")).toBeVisible();

    // The admin's navigation counts it; "Needs your review" lists it.
    await adminPage.goto("/webhooks");
    await adminPage.getByRole("link", { name: /1 plan waits for your review/ }).click();
    await expect(adminPage).toHaveURL(/\/plans\?status=review$/);
    await expect(adminPage.getByTestId("plans-list")).toContainText("Move the hook");

    // The admin approves and applies (they signed in moments ago: their password is recent).
    await adminPage.goto(planUrl);
    await adminPage.getByTestId("plan-approve").click();
    await expect(adminPage.getByTestId("plan-status")).toHaveText("Approved");
    await adminPage.getByTestId("plan-apply").click();
    await adminPage.getByRole("button", { name: "Apply now" }).click();
    await expect(adminPage.getByTestId("plan-status")).toHaveText("Applied", { timeout: 30_000 });
    await expect(adminPage.getByTestId("plan-progress")).toContainText("1 of 1 step done");
    await expect(adminPage.getByTestId("step-state")).toHaveText("Done");
    await shoot(adminPage, "plan-applied");

    // The EMS holds the new URL, written by the API user.
    await page.goto(`/webhooks/${id}`);
    await expect(page.getByTestId("listing-results").or(page.locator("main"))).toContainText(newUrl);

    // Undo: a new plan of the inverse, reviewed the same way.
    await page.goto(planUrl);
    await page.getByTestId("plan-undo").click();
    await page.waitForURL((address) => address.href !== planUrl && /^\/plans\/[0-9a-f-]{36}$/.test(address.pathname));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Undo “Move the hook”");
    await expect(page.getByTestId("plan-operation").locator("ins")).toHaveText(url);
    await page.getByTestId("plan-submit").click();
    // Sent for review before the admin opens it (else the admin's page is still the draft's).
    await expect(page.getByTestId("plan-status")).toHaveText("Waiting for review");
    const undoUrl = page.url();
    await adminPage.goto(undoUrl);
    await adminPage.getByTestId("plan-approve").click();
    await adminPage.getByTestId("plan-apply").click();
    await adminPage.getByRole("button", { name: "Apply now" }).click();
    await expect(adminPage.getByTestId("plan-status")).toHaveText("Applied", { timeout: 30_000 });
    await page.goto(`/webhooks/${id}`);
    await expect(page.locator("main")).toContainText(url);
    await page.goto(planUrl);
    await expect(page.getByText("Undone by")).toBeVisible();
    await adminContext.close();
  });

  test("a header value typed into a plan is never shown back, not on the plan page nor in its HTML", async ({ page, browser }) => {
    test.setTimeout(120_000);
    const { adminContext } = await ownerAndAdmin(page, browser, PLANS_ACCOUNTS[1]);
    await adminContext.close();
    await firstWebhook(page);
    await page.getByLabel("New header name").fill("X-E2E-Secret");
    await page.getByLabel("Its value").fill("k-e2e-header-value-7f3a");
    await page.getByTestId("webhook-edit-submit").click();
    await expect(page).toHaveURL(/\/plans\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId("plan-operation")).toContainText("X-E2E-Secret (added)");
    expect(await page.content()).not.toContain("k-e2e-header-value-7f3a");
    const html = await (await page.request.get(page.url())).text();
    expect(html).not.toContain("k-e2e-header-value-7f3a");
  });
});

test.describe("plans from where people are", () => {
  test("Health's Fix… drafts the fix as a plan; a list's Change these… drafts a bulk change over its rows", async ({ page, browser }) => {
    test.setTimeout(150_000);
    const { adminContext } = await ownerAndAdmin(page, browser, PLANS_ACCOUNTS[2]);
    await adminContext.close();

    // Health: a check with a mechanical fix offers "Fix…".
    await page.goto("/health");
    const fix = page.getByTestId("finding-fix").first();
    await expect(fix).toBeVisible();
    await fix.click();
    await expect(page).toHaveURL(/\/plans\/new\?fix=/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Change \d+ (webhook|webhook group)s?$/);
    await expect(page.getByText(/^Fixes: /)).toBeVisible();
    await page.getByTestId("bulk-edit-submit").click();
    await expect(page).toHaveURL(/\/plans\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId("plan-impact")).toContainText(/^Fixes [1-9]/);

    // The webhooks list, filtered to one host and one content type: every row, one bulk change. Two
    // filters: a repeated `filter=` reaches /plans/new as a list, which it once dropped (every webhook).
    const { url } = await firstWebhook(page);
    const host = new URL(url).host;
    await page.goto(`/webhooks?filter=${encodeURIComponent(`url=*contains*${host}`)}&filter=${encodeURIComponent("content_type=json")}&per-page=200`);
    await expect(page.getByTestId("filter-chip")).toHaveCount(2);
    await expect(page.getByTestId("filter-chip").first()).toContainText(host);
    const total = await page.getByTestId("listing-row").count();
    await page.getByTestId("change-these").click();
    await expect(page).toHaveURL(/\/plans\/new\?resource=webhooks/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(new RegExp(`^Change ${total} webhooks?$`));
    await shoot(page, "plan-bulk-form");
    await page.getByLabel("Host to replace").fill(host);
    await page.getByLabel("New host").fill("hooks.moved.example");
    await page.getByTestId("bulk-edit-submit").click();
    await expect(page).toHaveURL(/\/plans\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId("plan-operation")).toHaveCount(total);
    await expect(page.getByTestId("plan-operation").first().locator("ins")).toContainText("hooks.moved.example");
    await shoot(page, "plan-bulk");
  });
  test("a new group through a plan: a bad address keeps what was typed; applied, the group exists; then its deletion", async ({ page }) => {
    test.setTimeout(240_000);
    const owner = newTestUser("groups");
    await signUp(page, owner);
    await saveCredentials(page, PLANS_ACCOUNTS[5]);
    const name = `Partners ${Date.now()} — Zürich`;

    await page.goto("/webhook-groups");
    await page.getByTestId("new-record").click();
    await expect(page).toHaveURL(/\/webhook-groups\/new$/);
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Notification addresses").fill("ops@example.com, not-an-address");
    await page.getByTestId("group-edit-submit").click();
    await expect(page.locator("#field-notification_emails-error")).toHaveText("“not-an-address” is not an email address.");
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue(name);
    await shoot(page, "plan-new-group-error");
    await page.getByLabel("Notification addresses").fill("ops@example.com");
    await page.getByTestId("group-edit-submit").click();
    await expect(page).toHaveURL(/\/plans\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId("plan-operation")).toContainText(`Create webhook group “${name}”`);

    // One owner: review is off, so they send, approve and apply it themselves.
    await page.getByTestId("plan-submit").click();
    await page.getByTestId("plan-approve").click();
    await page.getByTestId("plan-apply").click();
    await page.getByRole("button", { name: "Apply now" }).click();
    await expect(page.getByTestId("plan-status")).toHaveText("Applied", { timeout: 30_000 });

    // The plan names the id the EMS gave it, and the group is in the EMS; deleting it is a plan of its own.
    const created = /\(#(\d+)\)/.exec((await page.getByTestId("plan-operation").textContent()) ?? "")?.[1];
    expect(created).toBeTruthy();
    const groupPath = `/webhook-groups/${created}`;
    await page.goto(groupPath);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(name);
    await page.goto(`${groupPath}/edit`);
    await shoot(page, "group-edit-delete");
    await page.getByTestId("group-delete").click();
    await expect(page).toHaveURL(/\/plans\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId("plan-operation")).toContainText("Delete webhook group");
    await page.getByTestId("plan-submit").click();
    await page.getByTestId("plan-approve").click();
    await page.getByTestId("plan-apply").click();
    await page.getByRole("button", { name: "Apply now" }).click();
    await expect(page.getByTestId("plan-status")).toHaveText("Applied", { timeout: 30_000 });
    const gone = await page.goto(groupPath);
    expect(gone?.status()).toBe(404);

    // The record of it: both plans applied, found by words of their titles; nothing waits for review.
    await page.goto("/plans?status=applied");
    await expect(page.getByTestId("plans-list").getByRole("listitem")).toHaveCount(2);
    await page.getByLabel("Words of the title").fill("delete");
    await page.getByRole("button", { name: "Find" }).click();
    await expect(page).toHaveURL(/q=delete/);
    await expect(page.getByTestId("plans-list").getByRole("listitem")).toHaveCount(1);
    await shoot(page, "plans-list");
    await page.goto("/plans?status=review");
    await expect(page.getByTestId("plans-empty")).toContainText("Nothing waits for your review");
    await shoot(page, "plans-review-empty");
  });
});
