// Issue 24, finding 3: a team with 800 saved views. The listing's tabs show the person's favourites
// and most used views, the rest come from "More" when it opens; /views is paged. Also measures the
// pages' HTML with those 800 views (printed, and kept as annotations of the test).
import fs from "node:fs";
import pg from "pg";
import { expect, test, type Page } from "@playwright/test";
import { E2E_DATABASE_URL_FILE } from "./helpers/config";
import { expectNoSeriousViolations } from "./helpers/axe";
import { shoot } from "./helpers/screenshots";
import { signUpWithSandbox } from "./listing-helpers";
import type { TestUser } from "./helpers/auth";

test.describe.configure({ timeout: 180_000 });

const TEAM_VIEWS = 800;

/**
 * `TEAM_VIEWS` team views straight into the e2e server's own database (as a team that made them
 * before the caps would have), each naming four long name filters (about 900 characters of options),
 * on both listing pages; and the person's two favourites.
 */
async function seedTeamViews(user: TestUser): Promise<void> {
  const db = new pg.Client({ connectionString: fs.readFileSync(E2E_DATABASE_URL_FILE, "utf8").trim() });
  await db.connect();
  try {
    await db.query(
      `INSERT INTO "SavedView" ("id", "teamId", "ownerId", "page", "name", "query", "scope", "updatedAt")
       SELECT 'seeded' || substr(md5(random()::text), 1, 12) || n, m."teamId", m."userId",
              CASE WHEN n % 4 = 0 THEN 'events' ELSE 'webhook-groups' END,
              'Team view ' || lpad(n::text, 3, '0'),
              (SELECT string_agg('filter=name%3D*contains*' || k || repeat('x', 190), '&') FROM generate_series(1, 4) AS k) || '&sort=-id',
              'TEAM', now()
       FROM "Membership" AS m JOIN "User" AS u ON u."id" = m."userId", generate_series(1, $2::integer) AS n
       WHERE u."email" = $1`,
      [user.email, TEAM_VIEWS],
    );
    await db.query(
      `INSERT INTO "SavedViewFavourite" ("userId", "viewId")
       SELECT u."id", v."id" FROM "User" AS u JOIN "SavedView" AS v ON v."ownerId" = u."id"
       WHERE u."email" = $1 AND v."name" IN ('Team view 101', 'Team view 602')`,
      [user.email],
    );
  } finally {
    await db.end();
  }
}

/** The HTML of a page as the browser's session gets it: its size, and the median time of three. */
async function weigh(page: Page, path: string): Promise<{ kilobytes: number; milliseconds: number }> {
  const runs: { bytes: number; ms: number }[] = [];
  for (let i = 0; i < 3; i++) {
    const started = Date.now();
    const response = await page.request.get(path);
    const body = await response.body();
    runs.push({ bytes: body.length, ms: Date.now() - started });
    expect(response.status()).toBe(200);
  }
  runs.sort((a, b) => a.ms - b.ms);
  return { kilobytes: Math.round(runs[1].bytes / 1024), milliseconds: runs[1].ms };
}

test("with 800 team views: the pages stay small (measured)", async ({ page }) => {
  test.skip(!fs.existsSync(E2E_DATABASE_URL_FILE), "needs the e2e server's own database (scripts/e2e-server.ts)");
  const user = await signUpWithSandbox(page, "weigh");
  const empty = { groups: await weigh(page, "/webhook-groups"), views: await weigh(page, "/views") };
  await seedTeamViews(user);
  const full = { groups: await weigh(page, "/webhook-groups"), views: await weigh(page, "/views") };
  const report =
    `no views: /webhook-groups ${empty.groups.kilobytes} kB ${empty.groups.milliseconds} ms, /views ${empty.views.kilobytes} kB ${empty.views.milliseconds} ms; ` +
    `${TEAM_VIEWS} team views: /webhook-groups ${full.groups.kilobytes} kB ${full.groups.milliseconds} ms, /views ${full.views.kilobytes} kB ${full.views.milliseconds} ms`;
  console.log(`[views-paging] ${report}`);
  test.info().annotations.push({ type: "page weight", description: report });
  // The tabs and a page of /views are bounded, whatever the team has.
  expect(full.groups.kilobytes - empty.groups.kilobytes).toBeLessThan(60);
  expect(full.views.kilobytes).toBeLessThan(600);
});

test("the tabs show favourites and the most used; “More” lists the rest, by keyboard; /views is paged", async ({ page }) => {
  test.skip(!fs.existsSync(E2E_DATABASE_URL_FILE), "needs the e2e server's own database (scripts/e2e-server.ts)");
  const user = await signUpWithSandbox(page, "paging");
  await seedTeamViews(user);

  await page.goto("/webhook-groups");
  await expect(page.getByTestId("listing-table")).toBeVisible();
  const tabs = page.getByTestId("view-tab");
  await expect(tabs).toHaveCount(8);
  await expect(tabs.first()).toContainText("Team view 101");
  const more = page.getByTestId("more-views-toggle");
  await expect(more).toContainText(`${TEAM_VIEWS * 0.75 - 8}`);
  await expect(page.getByTestId("more-views")).toHaveCount(0);

  // Keyboard: focus, Enter; the search box has the focus; Tab walks the list; Escape closes.
  await more.focus();
  await page.keyboard.press("Enter");
  const list = page.getByTestId("more-views");
  await expect(list).toBeVisible();
  await expect(page.getByTestId("more-views-search")).toBeFocused();
  await expect(page.getByTestId("more-views-count")).toHaveText(`20 of ${TEAM_VIEWS * 0.75 - 8}`);
  await expectNoSeriousViolations(page, { label: "webhook groups with “More” open" });
  await shoot(page, "views-more-open", false);
  await page.keyboard.type("view 77");
  await expect(page.getByTestId("more-views-count")).toHaveText(/^\d+ of \d+$/);
  await expect(list.getByTestId("more-view").first()).toContainText("Team view 77");
  await page.keyboard.press("Tab");
  await expect(list.getByTestId("more-view").first()).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(list).toHaveCount(0);
  await expect(more).toBeFocused();

  // Choosing one opens it (as the active tab, though it is not among the eight).
  await more.click();
  await page.getByTestId("more-views-search").fill("Team view 777");
  await page.getByTestId("more-view").filter({ hasText: "Team view 777" }).click();
  await expect(page).toHaveURL(/view=/);
  await expect(page.getByTestId("view-tabs").locator('a[aria-current="page"]')).toContainText("Team view 777");

  // /views: 25 at a time, with the range and the way on.
  await page.goto("/views");
  await expect(page.getByTestId("views-range").first()).toHaveText(`1–25 of ${TEAM_VIEWS}`);
  await expect(page.getByTestId("view-row")).toHaveCount(25);
  await expectNoSeriousViolations(page, { label: "/views, paged" });
  await shoot(page, "views-paged", false);
  await page.getByTestId("views-next").first().click();
  await expect(page).toHaveURL(/\/views\?page=2$/);
  await expect(page.getByTestId("views-range").first()).toHaveText(`26–50 of ${TEAM_VIEWS}`);
  await page.goto("/views?page=32");
  await expect(page.getByTestId("views-range").first()).toHaveText(`776–800 of ${TEAM_VIEWS}`);
  await expect(page.getByTestId("views-next")).toHaveCount(0);
  await page.getByTestId("views-previous").first().click();
  await expect(page.getByTestId("views-range").first()).toHaveText(`751–775 of ${TEAM_VIEWS}`);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }
});

test("at 100 views, “Save view” says why it is refused and keeps the name typed", async ({ page }) => {
  test.skip(!fs.existsSync(E2E_DATABASE_URL_FILE), "needs the e2e server's own database (scripts/e2e-server.ts)");
  const user = await signUpWithSandbox(page, "capped");
  const db = new pg.Client({ connectionString: fs.readFileSync(E2E_DATABASE_URL_FILE, "utf8").trim() });
  await db.connect();
  try {
    await db.query(
      `INSERT INTO "SavedView" ("id", "teamId", "ownerId", "page", "name", "query", "scope", "updatedAt")
       SELECT 'capped' || substr(md5(random()::text), 1, 12) || n, m."teamId", m."userId", 'events', 'Mine ' || n, '', 'PERSONAL', now()
       FROM "Membership" AS m JOIN "User" AS u ON u."id" = m."userId", generate_series(1, 100) AS n
       WHERE u."email" = $1`,
      [user.email],
    );
  } finally {
    await db.end();
  }

  await page.goto("/webhook-groups?sort=-id");
  await expect(page.getByTestId("listing-table")).toBeVisible();
  await page.getByTestId("save-view-toggle").click();
  const form = page.getByTestId("save-view-form");
  await form.getByLabel("Name").fill("One too many");
  await form.getByRole("button", { name: "Save view" }).click();
  await expect(form.getByRole("alert")).toHaveText("You have 100 saved views, the most one person can keep. Delete one to save another.");
  await expect(form.getByLabel("Name")).toHaveValue("One too many");
  await expect(page).toHaveURL(/sort=-id$/);
  await shoot(page, "views-cap-refused", false);
});
