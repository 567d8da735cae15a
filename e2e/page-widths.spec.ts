import { expect, test, type Browser, type Page } from "@playwright/test";
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
    // Read in the frame after the first one painted at this width: a frame's animation callbacks run
    // before its layout and resize observers, so one frame would read the layout of the old width's
    // state (CI: 1,826 px at 1,440 for the events' every column, a frame before the box scrolled).
    const pageWidth = await page.evaluate(
      () => new Promise<number>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(document.documentElement.scrollWidth)))),
    );
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

/** `walk` as the listing's reader (roles.setup.ts), in a browser context of its own. */
async function walkSignedIn(browser: Browser, urls: string[]): Promise<void> {
  const context = await browser.newContext({ storageState: ROLE_STATE.lister });
  await walk(await context.newPage(), urls);
  await context.close();
}

test.describe("every page at 390 and 1,440 px: no sideways scroll, no serious axe violation", () => {
  // One test a listing with its detail pages, so the three spread over the workers (together they
  // took 140 s on one).
  test("the home page and the webhook groups", async ({ browser }) => {
    const group = (await apiList("webhook-groups", "per-page=1&expand=webhooks&sort=-id")).items[0]!;
    await walkSignedIn(browser, [
      "/",
      `/webhook-groups?fields=${WEBHOOK_GROUP_FIELDS.join(",")}&expand=webhooks&per-page=50`,
      "/webhook-groups?filter=name%3D*contains*a&filter=id%3E1&searchCondition=or&sort=-id,name&ids=1,x",
      `/webhook-groups/${group.id}`,
    ]);
  });

  test("the events", async ({ browser }) => {
    const event = (await apiList("events", "per-page=1&sort=-id")).items[0]!;
    await walkSignedIn(browser, [
      `/events?fields=${EVENT_FIELDS.join(",")}&per-page=50`,
      "/events?filter=status%3D*in*live%7Cdraft&sort=-start_date",
      `/events/${event.id}`,
      "/events/999999",
    ]);
  });

  test("the webhooks", async ({ browser }) => {
    const webhook = (await apiList("webhooks", "per-page=1&sort=-id")).items[0]!;
    await walkSignedIn(browser, [`/webhooks?fields=${WEBHOOK_FIELDS.join(",")}&per-page=50`, `/webhooks/${webhook.id}`, "/webhooks/999999999"]);
  });

  test("the other pages of a signed-in person", async ({ browser }) => {
    await walkSignedIn(browser, ["/coverage", "/coverage?q=Paris&scope=all", "/health", "/changes", "/audit"]);
  });

  test("the sections of Settings", async ({ browser }) => {
    await walkSignedIn(browser, [
      "/settings/credentials",
      "/settings/budget",
      "/settings/tracking",
      "/settings/alerts",
      "/team",
      "/account",
      "/account/sessions",
      "/views",
    ]);
  });

  test("the pages of a visitor", async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await walk(page, ["/sign-in", "/sign-up", "/invite/not-a-real-token"]);
    await context.close();
  });
});
