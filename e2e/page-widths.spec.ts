import { expect, test, type Page } from "@playwright/test";
import { EVENT_FIELDS, WEBHOOK_FIELDS, WEBHOOK_GROUP_FIELDS } from "@/lib/ems/contract";
import { ROLE_STATE } from "./helpers/config";
import { apiList } from "./listing-helpers";
import { expectNoSeriousViolations } from "./helpers/axe";
import { utilityClashes } from "../tests/ui/utility-clashes";

// Every page of the portal, at a phone's width (390 px) and a desktop's (1,440 px), with its widest
// content (every column, webhooks expanded, long Unicode names from the sandbox's data):
// - nothing makes the page scroll sideways (a wide table scrolls inside its own box);
// - axe finds no serious or critical accessibility violation (the layout differs by width: cards,
//   menus, hidden labels);
// - no element carries two Tailwind utilities for one thing (tests/ui/utility-clashes.ts: the
//   stylesheet, not the code, would pick which one shows).
test.describe.configure({ timeout: 240_000 });

const WIDTHS = [390, 1440] as const;

async function checkAtBothWidths(page: Page, url: string): Promise<void> {
  const classLists = await page.evaluate(() => [...new Set([...document.querySelectorAll("[class]")].map((element) => element.getAttribute("class") ?? ""))]);
  expect(
    classLists.filter((classList) => utilityClashes(classList).length > 0).map((classList) => `${classList} (${utilityClashes(classList).join(", ")})`),
    `${url}: utilities that clash`,
  ).toEqual([]);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    const pageWidth = await page.evaluate(() => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(document.documentElement.scrollWidth))));
    expect(pageWidth, `${url} at ${width} px`).toBeLessThanOrEqual(width);
    await expectNoSeriousViolations(page, { label: `axe on ${url} at ${width} px` });
  }
}

async function walk(page: Page, urls: string[]): Promise<void> {
  for (const url of urls) {
    await page.goto(url);
    await page.waitForLoadState("networkidle");
    await checkAtBothWidths(page, url);
  }
}

test.describe("every page at 390 and 1,440 px: no sideways scroll, no serious axe violation", () => {
  test("the listings and their detail pages", async ({ browser }) => {
    const context = await browser.newContext({ storageState: ROLE_STATE.lister });
    const page = await context.newPage();
    const event = (await apiList("events", "per-page=1&sort=-id")).items[0]!;
    const group = (await apiList("webhook-groups", "per-page=1&expand=webhooks&sort=-id")).items[0]!;
    const webhook = (await apiList("webhooks", "per-page=1&sort=-id")).items[0]!;
    await walk(page, [
      "/",
      `/webhook-groups?fields=${WEBHOOK_GROUP_FIELDS.join(",")}&expand=webhooks&per-page=50`,
      "/webhook-groups?filter=name%3D*contains*a&filter=id%3E1&searchCondition=or&sort=-id,name&ids=1,x",
      `/webhook-groups/${group.id}`,
      `/events?fields=${EVENT_FIELDS.join(",")}&per-page=50`,
      "/events?filter=status%3D*in*live%7Cdraft&sort=-start_date",
      `/events/${event.id}`,
      "/events/999999",
      `/webhooks?fields=${WEBHOOK_FIELDS.join(",")}&per-page=50`,
      `/webhooks/${webhook.id}`,
      "/webhooks/999999999",
    ]);
    await context.close();
  });

  test("the other pages of a signed-in person", async ({ browser }) => {
    const context = await browser.newContext({ storageState: ROLE_STATE.lister });
    const page = await context.newPage();
    await walk(page, ["/coverage", "/coverage?q=Paris&scope=all", "/health", "/changes", "/audit"]);
    await context.close();
  });

  test("the sections of Settings", async ({ browser }) => {
    const context = await browser.newContext({ storageState: ROLE_STATE.lister });
    const page = await context.newPage();
    await walk(page, ["/settings/credentials", "/settings/budget", "/settings/tracking", "/settings/alerts", "/team", "/account", "/account/sessions", "/views"]);
    await context.close();
  });

  test("the pages of a visitor", async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await walk(page, ["/sign-in", "/sign-up", "/invite/not-a-real-token"]);
    await context.close();
  });
});
