import { expect, test, type Browser, type Page } from "@playwright/test";
import { signUp, newTestUser } from "./helpers/auth";
import { shoot } from "./helpers/screenshots";
import { apiList, rowIds, signUpWithSandbox, chooseSandbox } from "./listing-helpers";
import { expectNoSeriousViolations } from "./helpers/axe";

test.describe.configure({ timeout: 180_000 });

async function inviteLink(page: import("@playwright/test").Page): Promise<string> {
  await page.goto("/team");
  await page.getByRole("button", { name: "Create invitation link" }).click();
  const link = await page.getByTestId("invitation-link").inputValue();
  return new URL(link).pathname.split("/").pop()!;
}

/** The tab of the view the page shows (aria-current), or of "All". */
const activeTab = (page: Page) => page.getByTestId("view-tabs").locator('a[aria-current="page"]');
const tab = (page: Page, name: string) => page.getByTestId("view-tab").filter({ hasText: name });

/** "Save view…" / "Save as new…": the popover's form. */
async function saveAsNew(page: Page, name: string, options: { team?: boolean; makeDefault?: boolean } = {}) {
  await page.getByTestId("save-view-toggle").click();
  const form = page.getByTestId("save-view-form");
  await form.getByLabel("Name").fill(name);
  if (options.team) await form.getByLabel("My team").check();
  if (options.makeDefault) await form.getByLabel("Open by default").check();
  const before = page.url();
  await form.getByRole("button", { name: "Save view" }).click();
  await expect.poll(() => page.url()).not.toBe(before);
  await expect(page).toHaveURL(/view=/);
}

async function chooseFromMenu(page: Page, viewName: string, item: string) {
  await tab(page, viewName).getByTestId("view-menu-trigger").click();
  await page.getByRole("menuitem", { name: item }).click();
}

/** The same address with one option changed, loaded as a person would paste it. */
async function withOption(page: Page, key: string, value: string) {
  const url = new URL(page.url());
  url.searchParams.set(key, value);
  await page.goto(`${url.pathname}${url.search}`);
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

  await saveAsNew(page, "Sync groups", { team: true });
  await expect(activeTab(page)).toContainText("Sync groups");
  await expect(activeTab(page)).toContainText("Team view");
  const viewUrl = new URL(page.url());
  expect(viewUrl.searchParams.get("filter")).toBe("name=*contains*sync");
  const viewPath = `${viewUrl.pathname}${viewUrl.search}`;

  // A teammate, with their own credentials, opens the link.
  const token = await inviteLink(page);
  const mate = await newPage(browser);
  await signUp(mate.page, newTestUser("mate"), { invite: token });
  await chooseSandbox(mate.page);
  await mate.page.goto(viewPath);
  await expect(activeTab(mate.page)).toContainText("Sync groups");
  await expect.poll(() => rowIds(mate.page)).toEqual(expected.items.map((item) => item.id));

  // Members see team views but do not manage them: their tab's menu copies them.
  await tab(mate.page, "Sync groups").getByTestId("view-menu-trigger").click();
  await expect(mate.page.getByRole("menuitem", { name: "Copy to my views" })).toBeVisible();
  await expect(mate.page.getByRole("menuitem", { name: "Rename…" })).toHaveCount(0);
  await expect(mate.page.getByRole("menuitem", { name: "Delete…" })).toHaveCount(0);
  await mate.page.getByRole("menuitem", { name: "Copy to my views" }).click();
  await expect(mate.page.getByText("Copied as “Sync groups (copy)”.")).toBeVisible();
  // /views lists both: the team's, and the copy as the member's own.
  await mate.page.goto("/views");
  const row = mate.page.locator('[data-testid="view-row"][data-view-name="Sync groups"]');
  await expect(row).toContainText("Team");
  await expect(row.getByTestId("view-description")).toHaveText("Name contains sync · ID, highest first");
  await expect(row.getByRole("button")).toHaveCount(0);
  const copy = mate.page.locator('[data-testid="view-row"][data-view-name="Sync groups (copy)"]');
  await expect(copy).toContainText("Personal");
  await expect(copy.getByTestId("view-owner")).toContainText("You");

  // The same link opens by /views/ID for the team, too.
  const viewId = viewUrl.searchParams.get("view")!;
  await mate.page.goto(`/views/${viewId}`);
  await expect(mate.page).toHaveURL(new RegExp(`view=${viewId}`));
  await expect(activeTab(mate.page)).toContainText("Sync groups");
  await mate.context.close();

  // Someone from another team: no view name, but the filters of the link.
  const outsider = await newPage(browser);
  await signUpWithSandbox(outsider.page, "outsider");
  await outsider.page.goto(viewPath);
  await expect(outsider.page.getByTestId("listing-notices")).toContainText("not available to you");
  await expect(outsider.page.getByTestId("view-bar")).not.toContainText("Sync groups");
  await expect(activeTab(outsider.page)).toHaveText("All");
  await expect.poll(() => rowIds(outsider.page)).toEqual(expected.items.map((item) => item.id));
  await outsider.page.goto(`/views/${viewId}`);
  await expect(outsider.page.getByTestId("view-unavailable")).toBeVisible();
  await outsider.context.close();
});

test("a personal default view opens on the bare page; rename and delete it", async ({ page }) => {
  await signUpWithSandbox(page, "default");
  await page.goto("/events?sort=-start_date&per-page=50");
  await expect(page.getByTestId("listing-table")).toBeVisible();
  await saveAsNew(page, "Latest events", { makeDefault: true });

  await page.goto("/events");
  await expect(page).toHaveURL(/sort=-start_date/);
  await expect(activeTab(page)).toContainText("Latest events");
  // "All" opts out of the default.
  await page.getByTestId("view-tab-all").click();
  await expect(page).toHaveURL(/view=none/);
  await expect(activeTab(page)).toHaveText("All");

  await page.goto("/views");
  await expect(page.getByTestId("view-row").filter({ hasText: "Latest events" })).toContainText("Your default");
  // A name taken by another view: the reason in the rename dialog, which keeps what was typed, at
  // a width one can still type in (on a phone too).
  await page.goto("/events?filter=status%3Dlive");
  await saveAsNew(page, "Live only");
  await page.setViewportSize({ width: 390, height: 900 });
  await chooseFromMenu(page, "Latest events", "Rename…");
  const rename = page.getByRole("dialog", { name: "Rename view" });
  await rename.getByLabel("New name").fill("Live only");
  await rename.getByRole("button", { name: "Rename" }).click();
  await expect(rename.getByRole("alert")).toHaveText("You already have a view named “Live only”.");
  await expect(rename.getByLabel("New name")).toHaveValue("Live only");
  expect((await rename.getByLabel("New name").boundingBox())!.width).toBeGreaterThan(150);
  await page.setViewportSize({ width: 1280, height: 720 });
  await rename.getByLabel("New name").fill("Newest events");
  await rename.getByRole("button", { name: "Rename" }).click();
  await expect(page.getByText("Saved “Newest events”.")).toBeVisible();
  await expect(tab(page, "Newest events")).toBeVisible();
  // Deleting asks first; Cancel keeps it.
  await chooseFromMenu(page, "Newest events", "Delete…");
  await page.getByTestId("confirm-dialog").getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("view-tab")).toHaveCount(2);
  await chooseFromMenu(page, "Newest events", "Delete…");
  await page.getByTestId("confirm-dialog").getByRole("button", { name: "Delete view" }).click();
  await expect(page.getByText("Deleted “Newest events”.")).toBeVisible();
  await expect(page.getByTestId("view-tab")).toHaveCount(1);
  await page.goto("/views");
  await expect(page.getByTestId("view-row")).toHaveCount(1);
  await page.goto("/events");
  await expect(page).toHaveURL(/\/events$/);
});

test("view tabs: unsaved mark, revert, save, save as new, favourite, default, copy link, delete and undo", async ({ page }) => {
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  // Radix sets its popovers' styles from script (allowed); nothing here may break the page policy.
  const policyViolations: string[] = [];
  page.on("console", (message) => {
    if (message.text().startsWith("CSP violation")) policyViolations.push(`${page.url()} ${message.text()}`);
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const target = event.target instanceof Element ? event.target : null;
      // sonner's own stylesheet: the policy allows it by its hash, but sonner appends the <style>
      // empty first, and that empty moment is refused (foundation's, not this page's).
      if (target?.tagName === "STYLE" && target.textContent?.startsWith("[data-sonner-toaster]")) return;
      console.log(`CSP violation: ${event.violatedDirective} ${event.blockedURI} ${target?.outerHTML.slice(0, 120) ?? ""}`);
    });
  });
  await signUpWithSandbox(page, "tabs");
  await page.goto("/events?filter=status%3Dlive&sort=-start_date");
  await expect(page.getByTestId("listing-table")).toBeVisible();
  await saveAsNew(page, "Live events");
  await expect(page.getByText("Saved “Live events”.")).toBeVisible();
  await expect(activeTab(page)).toContainText("Live events");
  await expect(activeTab(page)).toHaveAttribute("title", "Live events: Status is live · Starts, newest first");
  await expect(page.getByTestId("unsaved-mark")).toHaveCount(0);
  const savedUrl = page.url();

  // Changed options: the mark, and Revert back to the view's own address.
  await withOption(page, "per-page", "50");
  await expect(page.getByTestId("unsaved-mark")).toBeVisible();
  await expect(activeTab(page)).toContainText("unsaved changes");
  await shoot(page, "views-unsaved", false);
  await page.getByTestId("save-view-toggle").click();
  await expect(page.getByTestId("save-view-form")).toBeVisible();
  await shoot(page, "views-save-as-new", false);
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("save-view-form")).toHaveCount(0);
  await page.getByTestId("revert-view").click();
  await expect(page).not.toHaveURL(/per-page/);
  await expect(page.getByTestId("unsaved-mark")).toHaveCount(0);
  expect(new URL(page.url()).search).toBe(new URL(savedUrl).search);

  // Changed again, and saved into the view.
  await withOption(page, "per-page", "50");
  await page.getByTestId("save-view-changes").getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved “Live events”.")).toBeVisible();
  await expect(page.getByTestId("unsaved-mark")).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("unsaved-mark")).toHaveCount(0);
  await expect(activeTab(page)).toHaveAttribute("title", "Live events: Status is live · Starts, newest first · 50 rows per page");

  // Changed once more, saved as a new view with a hostile name (it shows as text, and nothing widens the page).
  const hostile = `<img src=x onerror=alert(1)> ünïcødé 名前 ${"x".repeat(38)}`;
  await withOption(page, "sort", "name");
  await saveAsNew(page, hostile);
  await expect(page.getByTestId("view-tab")).toHaveCount(2);
  await expect(activeTab(page)).toContainText(hostile);
  await expect(page.locator("img[src=x]")).toHaveCount(0);
  const names = () => page.getByTestId("view-tab").evaluateAll((tabs) => tabs.map((t) => t.getAttribute("data-view-name")));
  expect(await names()).toEqual([hostile, "Live events"]);

  // A favourite comes first.
  await chooseFromMenu(page, "Live events", "Add to favourites");
  await expect(page.getByText("Added “Live events” to favourites.")).toBeVisible();
  await expect.poll(names).toEqual(["Live events", hostile]);
  await expect(tab(page, "Live events")).toContainText("Favourite");

  // Default: the bare page opens it.
  await chooseFromMenu(page, hostile, "Set as default");
  await expect(page.getByText("Default view set.")).toBeVisible();
  await page.goto("/events");
  await expect(page).toHaveURL(/view=/);
  await expect(activeTab(page)).toContainText(hostile);
  await expect(tab(page, hostile)).toContainText("default");

  // Copy link: the view's own address, on the clipboard.
  await chooseFromMenu(page, "Live events", "Copy link");
  await expect(page.getByText("Link copied")).toBeVisible();
  const copied = new URL(await page.evaluate(() => navigator.clipboard.readText()));
  expect(copied.pathname).toBe("/events");
  expect(copied.searchParams.get("per-page")).toBe("50");
  expect(copied.searchParams.get("view")).toBeTruthy();
  await shoot(page, "views-tabs", false);
  await tab(page, "Live events").getByTestId("view-menu-trigger").click();
  await expect(page.getByRole("menuitem", { name: "Rename…" })).toBeVisible();
  await expectNoSeriousViolations(page);
  await shoot(page, "views-menu", false);
  await page.keyboard.press("Escape");

  // Delete asks first, then offers Undo, which brings it back with its favourite mark.
  await chooseFromMenu(page, "Live events", "Delete…");
  await expect(page.getByTestId("confirm-dialog")).toContainText("Delete “Live events”?");
  await page.getByTestId("confirm-dialog").getByRole("button", { name: "Delete view" }).click();
  await expect(page.getByText("Deleted “Live events”.")).toBeVisible();
  await expect.poll(names).toEqual([hostile]);
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByText("Restored “Live events”.")).toBeVisible();
  await expect.poll(names).toEqual(["Live events", hostile]);
  await expect(tab(page, "Live events")).toContainText("Favourite");

  // /views: each view in words, never its raw query; owner, last change and the favourite mark.
  await page.goto("/views");
  const row = page.getByTestId("view-row").filter({ hasText: "Live events" });
  await expect(row.getByTestId("view-description")).toHaveText("Status is live · Starts, newest first · 50 rows per page");
  await expect(row.getByTestId("favourite-mark")).toBeVisible();
  await expect(row.getByTestId("view-owner")).toContainText("You");
  await expect(row).toContainText("Events");
  // Restored by Undo, it starts afresh; the hostile one was opened as the default a moment ago.
  await expect(row.getByTestId("view-last-used")).toContainText("Not opened yet");
  const opened = page.getByTestId("view-row").filter({ hasText: "ünïcødé" }).getByTestId("view-last-used").locator("time");
  await expect(opened).toContainText(/just now|1 minute ago/);
  await expect(opened).toHaveAttribute("title", /UTC$/);
  // A plain list: opening is its link, managing is the tab's menu.
  await expect(row.getByRole("button")).toHaveCount(0);
  await expect(page.locator("main")).not.toContainText("filter=");
  await expect(page.getByTestId("view-row").filter({ hasText: "ünïcødé" }).getByTestId("view-description")).toHaveText("Status is live · Name A–Z · 50 rows per page");
  await expectNoSeriousViolations(page);
  await shoot(page, "views-page");
  expect(policyViolations).toEqual([]);
});

test("without JavaScript, “Save view…” is a link to a page whose form saves the view and opens it", async ({ browser }) => {
  const scripted = await browser.newContext();
  const setup = await scripted.newPage();
  await signUpWithSandbox(setup, "nojs");
  await setup.goto("/webhook-groups?sort=-id");
  // The popover's trigger is a link to the same form's own page.
  const href = await setup.getByTestId("save-view-toggle").getAttribute("href");
  expect(href).toBe("/views/new?page=webhook-groups&query=sort%3D-id");
  const state = await scripted.storageState();

  // (A listing page itself streams its table, which needs JavaScript; the form page does not.)
  const context = await browser.newContext({ javaScriptEnabled: false, storageState: state });
  const page = await context.newPage();
  await page.goto(href!);
  await expect(page.getByText("ID, highest first")).toBeVisible();
  await page.getByLabel("Name").fill("Newest groups");
  await page.getByRole("button", { name: "Save view" }).click();
  await expect(page).toHaveURL(/\/webhook-groups\?sort=-id&view=/);
  await page.goto("/views");
  const row = page.getByTestId("view-row").filter({ hasText: "Newest groups" });
  await expect(row.getByTestId("view-description")).toHaveText("ID, highest first");
  await expect(row.getByTestId("open-view")).toHaveAttribute("href", /^\/webhook-groups\?sort=-id&view=/);
  await context.close();

  await scripted.close();
});
