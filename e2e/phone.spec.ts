import { expect, test, type Page } from "@playwright/test";
import { WEBHOOK_FIELDS } from "@/lib/ems/contract";
import { ROLE_STATE } from "./helpers/config";
import { apiList } from "./listing-helpers";

// The frame at a phone's width (390 px) and a desktop's (1,440 px), as a person sees it:
// - at 390 px no page is wider than the screen, and every list row is two lines (about 60 px: the
//   name, a status pill, one line of detail), not a card of labelled values;
// - at 1,440 px the page scrolls once: a long list's header stays visible below the portal's bar,
//   and a link to a row (`/webhooks#webhook-411`) lands on it below the bars and marks it.
// E2E_SHOTS=dir also saves a screenshot of each page at both widths, to look at.
test.use({ storageState: ROLE_STATE.lister });
test.describe.configure({ timeout: 240_000 });

const SHOTS = process.env.E2E_SHOTS;

async function shoot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: false });
}

/** The demo account's newest event, group and webhook, for their pages. */
async function newestRecords() {
  const newest = async (resource: "events" | "webhook-groups" | "webhooks") => (await apiList(resource, "per-page=1&sort=-id")).items[0]!;
  const [event, group, webhook] = await Promise.all([newest("events"), newest("webhook-groups"), newest("webhooks")]);
  return { event, group, webhook };
}

/** A record's page of each kind and the overview pages, each with the name its picture takes. */
function recordAndOverviewPages({ event, group, webhook }: Awaited<ReturnType<typeof newestRecords>>): [string, string][] {
  return [
    ["group", `/webhook-groups/${group.id}`],
    ["webhook", `/webhooks/${webhook.id}`],
    ["event", `/events/${event.id}`],
    ["health", "/health"],
    ["coverage", "/coverage"],
    ["changes", "/changes"],
  ];
}

async function pageWidth(page: Page): Promise<number> {
  return page.evaluate(() => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(document.documentElement.scrollWidth))));
}

/** The bottom of the portal's sticky top bar, in px from the top of the window. */
async function barBottom(page: Page): Promise<number> {
  return page.evaluate(() => {
    // A bar across the top: from 1,024 px the portal's header is a sidebar as tall as the window instead.
    const bar = [...document.querySelectorAll("header")].find(
      (header) =>
        (getComputedStyle(header).position === "sticky" || getComputedStyle(header).position === "fixed") &&
        header.getBoundingClientRect().height < window.innerHeight / 2,
    );
    return bar ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
  });
}

test("at 390 px every main page fits the screen, and list rows are two lines with the name and a status", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const { event, group, webhook } = await newestRecords();

  for (const [name, url] of [
    ["webhooks", "/webhooks"],
    ["groups", "/webhook-groups"],
    ["events", "/events"],
  ] as const) {
    await page.goto(url);
    const rows = page.getByTestId("listing-row");
    await expect(rows.first()).toBeVisible();
    expect(await pageWidth(page), `${url} is wider than the screen`).toBeLessThanOrEqual(390);
    // The view tabs scroll in their own strip.
    const tabs = page.getByTestId("view-tabs");
    expect(await tabs.evaluate((strip) => strip.getBoundingClientRect().right)).toBeLessThanOrEqual(390);
    const count = Math.min(await rows.count(), 8);
    for (let i = 0; i < count; i++) {
      const row = rows.nth(i);
      const box = (await row.boundingBox())!;
      expect(box.height, `${url} row ${i} is ${box.height} px high`).toBeLessThanOrEqual(80);
      expect(box.height).toBeGreaterThanOrEqual(40);
      // A title (the row's link, its name) and a status pill.
      await expect(row.locator(".phone-link")).toBeVisible();
      expect((await row.locator(".phone-link").innerText()).trim()).not.toBe("");
      await expect(row.getByTestId("phone-status")).toBeVisible();
      // No labelled value cards.
      expect(await row.evaluate((tr) => [...tr.querySelectorAll("td[data-label]")].filter((td) => getComputedStyle(td).display !== "none").length)).toBe(0);
    }
    await shoot(page, `${name}-390`);
  }

  // Names are the rows' titles: the webhooks list's first row is its first webhook's name.
  await page.goto("/webhooks?sort=-id");
  await expect(page.getByTestId("listing-row").first().locator(".phone-link")).toHaveText(String(webhook.name || `#${webhook.id}`));

  for (const [name, url] of [
    ...recordAndOverviewPages({ event, group, webhook }),
    ["settings", "/settings"],
    ["team", "/team"],
    ["account", "/account"],
    ["views", "/views"],
    ["audit", "/audit"],
  ] as const) {
    await page.goto(url);
    await page.waitForLoadState("networkidle");
    expect(await pageWidth(page), `${url} is wider than the screen`).toBeLessThanOrEqual(390);
    await shoot(page, `${name}-390`);
  }
});

test("at 1,440 px a long list scrolls with the page, its header stays below the bar, and a deep link marks its row", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/webhook-groups?per-page=100");
  const table = page.getByTestId("listing-table");
  await expect(table).toBeVisible();
  await shoot(page, "groups-1440");
  // One scroll: the table's box does not scroll on its own, and the pager is on the page below it.
  const box = page.getByTestId("listing-scroll");
  expect(await box.evaluate((element) => element.scrollHeight - element.clientHeight)).toBeLessThanOrEqual(2);
  await page.mouse.wheel(0, 2_500);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(2_000);
  const header = page.getByRole("columnheader").first();
  const bar = await barBottom(page);
  const headerBox = (await header.boundingBox())!;
  expect(headerBox.y, "the table's header stays below the portal's bar").toBeGreaterThanOrEqual(bar - 1);
  expect(headerBox.y).toBeLessThanOrEqual(bar + 4);
  await expect(header).toBeInViewport();
  await shoot(page, "groups-1440-scrolled");

  // A deep link lands on the row, below the bar and the table's header, and marks it.
  const groups = await apiList("webhook-groups", "per-page=100");
  const target = groups.items[Math.min(60, groups.items.length - 1)]!;
  await page.goto(`/webhook-groups?per-page=100#webhook-group-${target.id}`);
  const row = page.locator(`#webhook-group-${target.id}`);
  await expect(row).toBeInViewport();
  const rowBox = (await row.boundingBox())!;
  const headerNow = (await page.getByRole("columnheader").first().boundingBox())!;
  expect(rowBox.y, "the row is not hidden under the table's header").toBeGreaterThanOrEqual(headerNow.y + headerNow.height - 1);
  // Marked for a moment (an amber background that fades).
  const marked = await row.evaluate((tr) => getComputedStyle(tr).animationName);
  expect(marked).toBe("target-flash");
  await shoot(page, "groups-1440-deep-link");

  // The webhooks list and a group's page too (the Changes feed links to `#webhook-<id>` there).
  const webhooks = await apiList("webhooks", "per-page=50");
  const hook = webhooks.items[Math.min(30, webhooks.items.length - 1)]!;
  await page.goto(`/webhooks?per-page=50#webhook-${hook.id}`);
  await expect(page.locator(`#webhook-${hook.id}`)).toBeInViewport();
  expect((await page.locator(`#webhook-${hook.id}`).boundingBox())!.y).toBeGreaterThanOrEqual((await barBottom(page)) + 20);
  await shoot(page, "webhooks-1440-deep-link");
});

test("at 1,440 px the lists and pages look right (screenshots when asked)", async ({ page }) => {
  test.skip(!SHOTS, "only for screenshots");
  await page.setViewportSize({ width: 1440, height: 900 });
  const { event, group, webhook } = await newestRecords();
  for (const [name, url] of [
    ["webhooks", "/webhooks"],
    ["events", "/events"],
    ...recordAndOverviewPages({ event, group, webhook }),
    ["webhooks-wide", `/webhooks?fields=${WEBHOOK_FIELDS.join(",")}`],
  ] as const) {
    await page.goto(url);
    await page.waitForLoadState("networkidle");
    expect(await pageWidth(page)).toBeLessThanOrEqual(1440);
    await shoot(page, `${name}-1440`);
  }
  await page.goto("/webhooks");
  await page.getByTestId("data-age").click();
  await expect(page.getByRole("dialog", { name: "Data and API budget" })).toBeVisible();
  await shoot(page, "webhooks-1440-data-status");
  await page.keyboard.press("Escape");
  await page.getByTestId("export-menu").click();
  await expect(page.getByTestId("export-csv")).toBeVisible();
  await shoot(page, "webhooks-1440-export");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.keyboard.press("Escape");
  await page.getByTestId("data-age").click();
  await expect(page.getByRole("dialog", { name: "Data and API budget" })).toBeVisible();
  await shoot(page, "webhooks-390-data-status");
  await page.goto("/health");
  await shoot(page, "health-390");
  await page.setViewportSize({ width: 1440, height: 900 });
  await shoot(page, "health-1440");
  await page.goto("/coverage");
  await shoot(page, "coverage-1440");
});
