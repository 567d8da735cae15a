import { expect, test, type Page } from "@playwright/test";
import { newTestUser, signUp } from "./helpers/auth";
import { shoot } from "./helpers/screenshots";
import { apiList, signUpWithSandbox } from "./listing-helpers";

test.describe.configure({ timeout: 120_000 });

const webhookFound = (page: Page) => page.getByTestId("palette-webhook");
const palette = (page: Page) => page.getByTestId("command-palette");
const input = (page: Page) => page.getByTestId("palette-input");

async function openWithKeyboard(page: Page): Promise<void> {
  // The shortcut works once the page is interactive.
  await expect(page.getByTestId("palette-open")).toHaveAttribute("data-ready", "true");
  await page.keyboard.press("Control+K");
  await expect(palette(page)).toBeVisible();
  await expect(input(page)).toBeFocused();
}

test("Ctrl+K jumps to a page and to a webhook group by number; Esc closes; the header button opens it too", async ({ page }) => {
  await signUpWithSandbox(page, "palette");
  const groups = await apiList("webhook-groups", "fields=id,name&sort=id&per-page=5");
  const first = groups.items[0] as { id: number; name: string };
  await page.goto("/webhook-groups");
  await expect(page.getByTestId("palette-open")).toBeVisible();

  // A page: type its name, Enter.
  await openWithKeyboard(page);
  await expect(palette(page).getByRole("option", { name: "Events" })).toBeVisible();
  await shoot(page, "palette-open", false);
  await input(page).fill("Events");
  await input(page).press("Enter");
  await expect(page).toHaveURL(/\/events$/);
  await expect(palette(page)).toHaveCount(0);

  // A group by its number.
  await openWithKeyboard(page);
  await input(page).fill(String(first.id));
  await expect(page.getByTestId("palette-group-id")).toHaveText(`Open webhook group #${first.id}`);
  await input(page).press("Enter");
  await expect(page).toHaveURL(new RegExp(`/webhook-groups/${first.id}$`));

  // Nothing found says so; Esc closes and gives the page back.
  await openWithKeyboard(page);
  await input(page).fill("zz no such hook zz");
  await expect(page.getByTestId("palette-webhook-none")).toHaveText("No webhook matches “zz no such hook zz”.", { timeout: 15_000 });
  await expect(page.getByTestId("palette-event-none")).toHaveText("No event matches “zz no such hook zz”.");
  await page.keyboard.press("Escape");
  await expect(palette(page)).toHaveCount(0);

  // The header's button, for mouse and phone users.
  await page.setViewportSize({ width: 390, height: 800 });
  await page.getByTestId("palette-open").click();
  await expect(palette(page)).toBeVisible();
  await expect(palette(page).getByRole("option", { name: "Settings" })).toBeVisible();
  await palette(page).getByRole("option", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/settings\/credentials$/);
});

test("without credentials, a search says how to connect", async ({ page }) => {
  await signUp(page, newTestUser("unconnected"));
  await page.goto("/team");
  await openWithKeyboard(page);
  await input(page).fill("hooks");
  await expect(page.getByTestId("palette-search-error")).toHaveText("Connect an EMS account in Settings to search webhooks and events.", { timeout: 15_000 });
  await page.keyboard.press("Escape");
  await expect(palette(page)).toHaveCount(0);
});

test("what is typed right after Ctrl+K lands in the palette: before the page is interactive, and while the palette's code loads", async ({
  browser,
  page: signingUp,
}) => {
  await signUp(signingUp, newTestUser("type-ahead"));
  // A browser that has none of the page's scripts yet, and gets them late (a slow network): Ctrl+K
  // and the typing come before hydration.
  const page = await (await browser.newContext({ storageState: await signingUp.context().storageState() })).newPage();
  let releaseScripts = () => {};
  const scriptsHeld = new Promise<void>((resolve) => (releaseScripts = resolve));
  await page.route(
    (url) => url.pathname.startsWith("/_next/static/chunks/") && url.pathname.endsWith(".js"),
    async (route) => {
      await scriptsHeld;
      await route.continue();
    },
  );
  await page.goto("/team", { waitUntil: "commit" });
  await expect(page.getByTestId("palette-open")).toBeVisible();
  await page.keyboard.press("Control+K");
  await page.keyboard.type("zapier h");
  await expect(page.getByTestId("palette-open")).not.toHaveAttribute("data-ready", "true");
  releaseScripts();
  await expect(input(page)).toHaveValue("zapier h", { timeout: 30_000 });
  await expect(input(page)).toBeFocused();
  await page.keyboard.type("ooks");
  await expect(input(page)).toHaveValue("zapier hooks");
  await page.keyboard.press("Escape");
  await expect(palette(page)).toHaveCount(0);

  // Interactive, but the palette's own code not yet fetched: typed at once, nothing is lost either.
  await page.goto("/webhooks");
  await expect(page.getByTestId("palette-open")).toHaveAttribute("data-ready", "true");
  await page.keyboard.press("Control+K");
  await page.keyboard.type("zapier h");
  await expect(input(page)).toHaveValue("zapier h", { timeout: 30_000 });
});

test("⌘K finds a webhook by its whole URL and opens its page, finds an event by name, and runs actions (export, new view)", async ({ page }) => {
  await signUpWithSandbox(page, "palette-records");
  const hooks = await apiList("webhooks", "fields=id,name,url&sort=id&per-page=50");
  const hook = hooks.items.find((item) => !String(item.url).includes("&")) as { id: number; name: string; url: string };
  const events = await apiList("events", "fields=id,name&sort=id&per-page=5");
  const event = events.items[0] as { id: number; name: string };

  await page.goto("/webhooks");
  await openWithKeyboard(page);
  await input(page).fill(hook.url);
  await expect(webhookFound(page).filter({ hasText: `#${hook.id}` })).toBeVisible({ timeout: 15_000 });
  await expect(palette(page).getByText("Webhooks", { exact: true })).toBeVisible();
  await expect(palette(page).getByText("Events", { exact: true })).toBeVisible();
  await shoot(page, "palette-results", false);
  await webhookFound(page)
    .filter({ hasText: `#${hook.id}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/webhooks/${hook.id}$`));
  await expect(page.getByTestId("webhook-view").getByRole("heading", { name: hook.name, exact: true }).first()).toBeVisible();
  await expect(palette(page)).toHaveCount(0);

  // An event by a part of its name: arrows choose, Enter opens its page.
  await page.goto("/events");
  await openWithKeyboard(page);
  const part = event.name.slice(0, 8).trim();
  await input(page).fill(part);
  const eventFound = page.getByTestId("palette-event").filter({ hasText: `#${event.id}` });
  await expect(eventFound).toBeVisible({ timeout: 15_000 });
  await eventFound.click();
  await expect(page).toHaveURL(new RegExp(`/events/${event.id}$`));

  // Actions offered for the list on screen: its CSV, and a new view from its options.
  await page.goto("/webhooks?sort=-id");
  await openWithKeyboard(page);
  await input(page).fill("export");
  const download = page.waitForEvent("download");
  await input(page).press("Enter");
  expect((await download).suggestedFilename()).toMatch(/\.csv$/);
  // Done, the palette closes and a toast says what was saved.
  await expect(page.getByText(/^Exported \d+ rows as CSV\.$/)).toBeVisible({ timeout: 30_000 });
  await expect(palette(page)).toHaveCount(0);
  await openWithKeyboard(page);
  await input(page).fill("new view");
  await input(page).press("Enter");
  await expect(page).toHaveURL(/\/views\/new\?page=webhooks&query=sort%3D-id$/);
  await expect(page.getByRole("heading", { level: 1, name: "Save a view" })).toBeVisible();
});

test("j/k and Enter open a list's row; typing j in a search box moves nothing; ? lists the shortcuts and Escape closes them; g then e goes to Events", async ({
  page,
}) => {
  await signUpWithSandbox(page, "palette-keys");
  await page.goto("/webhooks");
  await expect(page.getByTestId("palette-open")).toHaveAttribute("data-ready", "true");
  const rows = page.getByTestId("listing-row");
  await expect(rows.nth(1)).toBeVisible();
  const second = await rows.nth(1).getAttribute("data-id");

  await page.keyboard.press("j");
  await expect(rows.nth(0)).toHaveAttribute("data-keyboard-current", "");
  await page.keyboard.press("j");
  await page.keyboard.press("ArrowDown");
  await expect(rows.nth(2)).toHaveAttribute("data-keyboard-current", "");
  await page.keyboard.press("k");
  await expect(rows.nth(1)).toHaveAttribute("data-keyboard-current", "");
  await expect(rows.nth(1).locator("a.row-link")).toBeFocused();
  await expect(page.locator("[data-keyboard-current]")).toHaveCount(1);
  await shoot(page, "row-focus", false);
  await page.setViewportSize({ width: 1280, height: 720 });
  await expect(rows.nth(1).locator("a.row-link")).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/webhooks/${second}$`));
  await expect(page.getByTestId("webhook-view")).toBeVisible();

  // "?" over any page; Escape closes it.
  await page.goto("/webhooks");
  await expect(page.getByTestId("palette-open")).toHaveAttribute("data-ready", "true");
  await page.keyboard.press("?");
  const dialog = page.getByTestId("shortcuts-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("heading", { name: "Keyboard shortcuts" })).toBeVisible();
  for (const does of ["Search webhooks, events, pages and actions", "Next row", "Previous row", "Open the row", "Show these shortcuts", "Webhooks", "Health"]) {
    await expect(dialog.getByTestId("shortcut").filter({ hasText: does }).first()).toBeVisible();
  }
  await expect(dialog.getByText("Ctrl K")).toBeVisible();
  await shoot(page, "shortcuts-dialog", false);
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);

  // Typing in a field is typing: Health's search box keeps the letter, no finding is marked.
  await page.goto("/health");
  const box = page.getByRole("search").getByRole("searchbox");
  await box.click();
  await page.keyboard.type("jjk");
  await expect(box).toHaveValue("jjk");
  await expect(page.locator("[data-keyboard-current]")).toHaveCount(0);
  await expect(box).toBeFocused();

  // "g" then a letter goes to a page.
  await box.blur();
  await page.keyboard.press("g");
  await page.keyboard.press("e");
  await expect(page).toHaveURL(/\/events$/);
});

test.describe("on a Mac", () => {
  test.use({ userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36" });

  test("the palette's hint says ⌘K from the first HTML on, and ⌘K opens it", async ({ page }) => {
    await signUp(page, newTestUser("mac"));
    const html = await (await page.request.get("/team")).text();
    expect(html).toContain("⌘K");
    expect(html).not.toContain("Ctrl K");
    await page.goto("/team");
    await expect(page.getByTestId("palette-shortcut")).toHaveText("⌘K");
    await expect(page.getByTestId("palette-open")).toHaveAttribute("data-ready", "true");
    await expect(page.getByTestId("palette-shortcut")).toHaveText("⌘K");
    await page.keyboard.press("Meta+K");
    await expect(palette(page)).toBeVisible();
  });
});
