import { expect, test } from "@playwright/test";
import { ROLE_STATE } from "./helpers/config";
import { shoot } from "./helpers/screenshots";
import { apiList, rowIds } from "./listing-helpers";

// The webhooks list and a webhook's page, read with the lister's demo credentials (e2e/roles.setup.ts).
test.describe.configure({ timeout: 120_000 });
test.use({ storageState: ROLE_STATE.lister });

const OTHER = { consumerKey: "ems_other_key", consumerSecret: "other-secret-123" };

/** The host of a URL as the list shows it. */
const hostOf = (url: unknown) => new URL(String(url)).host;

test.describe("webhooks", () => {
  test("home opens the webhooks list, which shows the account's webhooks, filters by host and sorts", async ({ page }) => {
    const all = await apiList("webhooks", "per-page=20");
    expect(all._meta.totalCount).toBeGreaterThan(20);

    await page.goto("/");
    await expect(page).toHaveURL(/\/webhooks$/);
    await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
    await expect(page.getByTestId("listing-total")).toContainText(`of ${all._meta.totalCount} webhooks`);
    await expect.poll(() => rowIds(page)).toEqual(all.items.map((item) => item.id));
    // One dense row: name (the row's link), group by name, host, status.
    const first = page.getByTestId("listing-row").first();
    await expect(first.locator("a.row-link")).toHaveAttribute("href", `/webhooks/${all.items[0].id}`);
    await expect(first.getByRole("link").nth(1)).toHaveAttribute("href", `/webhook-groups/${all.items[0].group_id}`);
    await expect(first).toContainText(hostOf(all.items[0].url));
    await expect(first.getByTestId("webhook-firing")).toBeVisible();
    await shoot(page, "webhooks-list");

    // Filtering by host narrows the list to what the API says.
    const host = hostOf(all.items[0].url);
    const byHost = await apiList("webhooks", `search=url%3D*contains*${encodeURIComponent(host)}&per-page=200`);
    expect(byHost._meta.totalCount).toBeLessThan(all._meta.totalCount);
    await page.goto(`/webhooks?filter=${encodeURIComponent(`url=*contains*${host}`)}&per-page=200`);
    await expect(page.getByTestId("filter-chip")).toContainText(host);
    await expect.poll(() => rowIds(page)).toEqual(byHost.items.map((item) => item.id));

    // Sorting by a column header: the API's order.
    await page.goto("/webhooks");
    await page.getByTestId("sort-name").click();
    await expect(page).toHaveURL(/sort=name/);
    const sorted = await apiList("webhooks", "sort=name&per-page=20");
    await expect.poll(() => rowIds(page)).toEqual(sorted.items.map((item) => item.id));
  });

  test("a row opens the webhook's page: status first, its configuration, header names and never a value", async ({ page, request }) => {
    const withHeaders = (await apiList("webhooks", "per-page=200")).items.find(
      (item) => Array.isArray(item.headers) && (item.headers as { value: string }[]).some((header) => header.value.length >= 6),
    );
    expect(withHeaders, "the demo account has a webhook with header values").toBeTruthy();
    const hook = withHeaders!;
    const values = (hook.headers as { key: string; value: string }[]).map((header) => header.value).filter((value) => value.length >= 6);

    // From the list, the row opens a side panel with the same content over the list.
    await page.goto(`/webhooks?filter=${encodeURIComponent(`id=${hook.id}`)}`);
    await page.getByTestId("listing-row").first().locator("a.row-link").click();
    await expect(page).toHaveURL(new RegExp(`/webhooks/${hook.id}$`));
    const panel = page.getByTestId("side-panel");
    await expect(panel.getByTestId("webhook-view")).toBeVisible();
    await expect(panel.getByTestId("webhook-url")).toHaveText(String(hook.url));
    await expect(panel.getByRole("heading", { name: "Configuration" })).toBeVisible();
    await expect(page.getByTestId("listing-row")).toHaveCount(1);
    await shoot(page, "webhook-panel", false);
    for (const value of values) expect(await page.content()).not.toContain(value);
    await page.keyboard.press("Escape");
    await expect(panel).toBeHidden();
    await expect(page).toHaveURL(/\/webhooks\?filter=/);

    // Its own page: the same, with the status line first.
    await page.goto(`/webhooks/${hook.id}`);
    const view = page.getByTestId("webhook-view");
    await expect(view.getByRole("heading", { level: 1 })).toHaveText(String(hook.name));
    await expect(view.getByTestId("webhook-url")).toHaveText(String(hook.url));
    await expect(view.getByTestId("webhook-fires-on")).toContainText(String(hook.trigger_object));
    await expect(view.getByTestId("header").first()).toContainText((hook.headers as { key: string }[])[0].key);
    // Status comes before the configuration.
    const statusTop = await view.getByTestId("webhook-status-line").or(view.getByTestId("webhook-no-findings")).boundingBox();
    const configTop = await view.getByRole("heading", { name: "Configuration" }).boundingBox();
    expect(statusTop!.y).toBeLessThan(configTop!.y);
    await shoot(page, "webhook-page");

    // Neither the rendered page nor the document the server sent holds a header value.
    const html = await (await request.get(`/webhooks/${hook.id}`)).text();
    const rendered = await page.content();
    for (const value of values) {
      expect(html).not.toContain(value);
      expect(rendered).not.toContain(value);
    }
  });

  test("a webhook in the groups list's expanded webhooks opens in the panel", async ({ page }) => {
    await page.goto("/webhook-groups?expand=webhooks");
    const link = page.locator(".webhook-lines a").first();
    const href = await link.getAttribute("href");
    await link.click();
    await expect(page).toHaveURL(new RegExp(`${href}$`));
    await expect(page.getByTestId("side-panel").getByTestId("webhook-view")).toBeVisible();
    // The full page is one click away.
    await page.getByTestId("side-panel-full-page").click();
    await expect(page.getByTestId("side-panel")).toHaveCount(0);
    await expect(page.getByTestId("webhook-view").getByRole("heading", { level: 1 })).toBeVisible();
  });

  test("a link in the panel leads to its page without the panel over it; Back brings the panel again", async ({ page }) => {
    await page.goto("/webhooks");
    await page.getByTestId("listing-row").first().locator("a.row-link").click();
    await expect(page).toHaveURL(/\/webhooks\/\d+$/);
    const panel = page.getByTestId("side-panel");
    // A client navigation to an address the panel's slot has no page for: the slot keeps what it had.
    await panel.getByTestId("webhook-group-link").click();
    await expect(page).toHaveURL(/\/webhook-groups\/\d+$/);
    await expect(page.getByTestId("group-findings").or(page.getByTestId("group-no-findings"))).toBeVisible();
    await expect(panel).toHaveCount(0);
    await page.goBack();
    await expect(page).toHaveURL(/\/webhooks\/\d+$/);
    await expect(panel.getByTestId("webhook-view")).toBeVisible();
  });

  test("the groups list says what is in each group", async ({ page }) => {
    const groups = await apiList("webhook-groups", "per-page=20&expand=webhooks");
    await page.goto("/webhook-groups");
    const first = page.getByTestId("listing-row").first();
    const hooks = groups.items[0].webhooks as { url: string }[];
    await expect(first).toContainText(`${hooks.length} webhook${hooks.length === 1 ? "" : "s"}`);
    if (hooks.length > 0) await expect(first).toContainText(hostOf(hooks[0].url));
    await shoot(page, "groups-list", false);
    // A group's page: its health findings (or that there are none) before its fields.
    await first.locator("a.row-link").click();
    await expect(page.getByTestId("group-findings").or(page.getByTestId("group-no-findings"))).toBeVisible();
    await shoot(page, "group-page", false);
  });

  test("a webhook of another account, or no webhook at all, is not found", async ({ page }) => {
    const mine = new Set((await apiList("webhooks", "per-page=200&fields=id")).items.map((item) => item.id));
    const theirs = (await apiList("webhooks", "per-page=200&fields=id", OTHER)).items.map((item) => item.id).find((id) => !mine.has(id));
    expect(theirs, "the second account has a webhook the demo account does not").toBeTruthy();
    for (const path of [`/webhooks/${theirs}`, "/webhooks/999999999", "/webhooks/abc"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByTestId("webhook-not-found")).toBeVisible();
    }
  });

  test("at 390 px the list uses the phone layout and nothing is wider than the screen", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/webhooks");
    await expect(page.getByTestId("listing-row").first()).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const id = await page.getByTestId("listing-row").first().getAttribute("data-id");
    await page.goto(`/webhooks/${id}`);
    await expect(page.getByTestId("webhook-view")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
