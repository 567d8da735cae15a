import { expect, test, type Page } from "@playwright/test";
import { EVENT_FIELDS, WEBHOOK_GROUP_FIELDS } from "@/lib/ems/contract";
import { ROLE_STATE } from "./helpers/config";
import { apiList } from "./listing-helpers";

// Nothing makes a page scroll sideways, on a phone (390 px) or a desktop (1,440 px): every page of
// the portal, with its widest content (every column, webhooks expanded, long Unicode names from the
// sandbox's data). A wide table scrolls inside its own box; the page itself never does.
test.describe.configure({ timeout: 180_000 });

const WIDTHS = [390, 1440] as const;

async function expectNoSidewaysScroll(page: Page, url: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    const pageWidth = await page.evaluate(() => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(document.documentElement.scrollWidth))));
    expect(pageWidth, `${url} at ${width} px`).toBeLessThanOrEqual(width);
  }
}

test("no page is wider than the screen at 390 and 1,440 px", async ({ browser }) => {
  const signedIn = await browser.newContext({ storageState: ROLE_STATE.lister });
  const page = await signedIn.newPage();
  const event = (await apiList("events", "per-page=1&sort=-id")).items[0]!;
  const group = (await apiList("webhook-groups", "per-page=1&expand=webhooks&sort=-id")).items[0]!;
  for (const url of [
    "/",
    `/webhook-groups?fields=${WEBHOOK_GROUP_FIELDS.join(",")}&expand=webhooks&per-page=50`,
    `/webhook-groups/${group.id}`,
    `/events?fields=${EVENT_FIELDS.join(",")}&per-page=50`,
    `/events/${event.id}`,
    "/coverage",
    "/health",
    "/changes",
    "/views",
    "/settings",
    "/team",
    "/audit",
    "/account",
    "/account/sessions",
  ]) {
    await page.goto(url);
    await page.waitForLoadState("networkidle");
    await expectNoSidewaysScroll(page, url);
  }
  await signedIn.close();

  const signedOut = await browser.newContext();
  const visitor = await signedOut.newPage();
  for (const url of ["/sign-in", "/sign-up", "/invite/not-a-real-token"]) {
    await visitor.goto(url);
    await expectNoSidewaysScroll(visitor, url);
  }
  await signedOut.close();
});
