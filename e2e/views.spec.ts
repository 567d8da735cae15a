import { expect, test, type Browser } from "@playwright/test";
import { signUp, newTestUser } from "./helpers/auth";
import { apiList, rowIds, signUpWithSandbox, chooseSandbox } from "./listing-helpers";

test.describe.configure({ timeout: 180_000 });

async function inviteLink(page: import("@playwright/test").Page): Promise<string> {
  await page.goto("/team");
  await page.getByRole("button", { name: "Create invitation link" }).click();
  const link = await page.getByTestId("invitation-link").inputValue();
  return new URL(link).pathname.split("/").pop()!;
}

async function newPage(browser: Browser) {
  const context = await browser.newContext();
  return { context, page: await context.newPage() };
}

test("a view saved, shared with the team, opened by a teammate who copies it; an outsider gets only its filters", async ({ page, browser }) => {
  await signUpWithSandbox(page, "owner");
  await page.goto("/webhook-groups?filter=name%3D*contains*sync&sort=-id");
  await expect(page.getByTestId("listing-table")).toBeVisible();
  const expected = await apiList("webhook-groups", "search=name%3D*contains*sync&sort=-id");

  await page.getByTestId("save-view-toggle").click();
  const form = page.getByTestId("save-view-form");
  await form.getByLabel("Name").fill("Sync groups");
  await form.getByLabel("My team").check();
  await form.getByRole("button", { name: "Save view" }).click();
  await expect(page).toHaveURL(/view=/);
  await expect(page.getByTestId("view-picker")).toContainText("Sync groups");
  const viewUrl = new URL(page.url());
  expect(viewUrl.searchParams.get("filter")).toBe("name=*contains*sync");
  const viewPath = `${viewUrl.pathname}${viewUrl.search}`;

  // A teammate, with their own credentials, opens the link.
  const token = await inviteLink(page);
  const mate = await newPage(browser);
  await signUp(mate.page, newTestUser("mate"), { invite: token });
  await chooseSandbox(mate.page);
  await mate.page.goto(viewPath);
  await expect(mate.page.getByTestId("view-picker")).toContainText("Sync groups");
  await expect.poll(() => rowIds(mate.page)).toEqual(expected.items.map((item) => item.id));

  // Members see team views but do not manage them; they copy them.
  await mate.page.goto("/views");
  const row = mate.page.locator('[data-testid="view-row"][data-view-name="Sync groups"]');
  await expect(row).toContainText("Team");
  await expect(row.getByTestId("rename-view")).toHaveCount(0);
  await expect(row.getByTestId("delete-view")).toHaveCount(0);
  await row.getByTestId("copy-view").click();
  await expect(row).toContainText("Copied as “Sync groups (copy)”");
  await mate.page.reload();
  const copy = mate.page.locator('[data-testid="view-row"][data-view-name="Sync groups (copy)"]');
  await expect(copy).toContainText("Personal");
  await expect(copy.getByTestId("rename-view")).toHaveCount(1);

  // The same link opens by /views/ID for the team, too.
  const viewId = viewUrl.searchParams.get("view")!;
  await mate.page.goto(`/views/${viewId}`);
  await expect(mate.page).toHaveURL(new RegExp(`view=${viewId}`));
  await expect(mate.page.getByTestId("view-picker")).toContainText("Sync groups");
  await mate.context.close();

  // Someone from another team: no view name, but the filters of the link.
  const outsider = await newPage(browser);
  await signUpWithSandbox(outsider.page, "outsider");
  await outsider.page.goto(viewPath);
  await expect(outsider.page.getByTestId("listing-notices")).toContainText("not available to you");
  await expect(outsider.page.getByTestId("view-picker")).not.toContainText("Sync groups");
  await expect.poll(() => rowIds(outsider.page)).toEqual(expected.items.map((item) => item.id));
  await outsider.page.goto(`/views/${viewId}`);
  await expect(outsider.page.getByTestId("view-unavailable")).toBeVisible();
  await outsider.context.close();
});

test("a personal default view opens on the bare page; rename and delete it", async ({ page }) => {
  await signUpWithSandbox(page, "default");
  await page.goto("/events?sort=-start_date&per-page=50");
  await expect(page.getByTestId("listing-table")).toBeVisible();
  await page.getByTestId("save-view-toggle").click();
  const form = page.getByTestId("save-view-form");
  await form.getByLabel("Name").fill("Latest events");
  await form.getByLabel("Open by default").check();
  await form.getByRole("button", { name: "Save view" }).click();
  await expect(page).toHaveURL(/view=/);

  await page.goto("/events");
  await expect(page).toHaveURL(/sort=-start_date/);
  await expect(page.getByTestId("view-picker")).toContainText("Latest events");
  // "All" opts out of the default.
  await page.goto("/events?view=none");
  await expect(page.getByTestId("view-picker")).toContainText("All (no saved view)");

  await page.goto("/views");
  const row = page.getByTestId("view-row").filter({ hasText: "Latest events" });
  await expect(row).toContainText("Your default");
  await row.getByLabel("New name").fill("Newest events");
  await row.getByTestId("rename-view").click();
  await expect(page.getByText("Saved “Newest events”.")).toBeVisible();
  await page.reload();
  const renamed = page.getByTestId("view-row").filter({ hasText: "Newest events" });
  await renamed.getByTestId("delete-view").click();
  await expect(page.getByTestId("view-row")).toHaveCount(0);
  await page.goto("/events");
  await expect(page).toHaveURL(/\/events$/);
});
