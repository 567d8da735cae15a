// The frame (issue 26 §3): the sidebar from 1,024 px, the "Menu" sheet below it, Settings as
// sections of their own, the Team page on a phone, and no red refusal behind "Confirm it's you".
import fs from "node:fs";
import pg from "pg";
import { expect, test, type Page } from "@playwright/test";
import { E2E_DATABASE_URL_FILE, ROLE_STATE } from "./helpers/config";
import { expectNoSeriousViolations } from "./helpers/axe";
import { signUpWithSandbox } from "./listing-helpers";

test.describe.configure({ timeout: 180_000 });

const SETTINGS_SECTIONS = [
  { path: "/settings/credentials", heading: "API credentials" },
  { path: "/settings/budget", heading: "API budget" },
  { path: "/settings/tracking", heading: "Change tracking" },
  { path: "/settings/alerts", heading: "Alerts" },
  { path: "/team", heading: "Team" },
  { path: "/account", heading: "Security" },
  { path: "/account/sessions", heading: "Sessions" },
  { path: "/views", heading: "Saved views" },
] as const;

/** With E2E_SCREENSHOTS_DIR: the viewport (or the whole page) at the width it is at, as `name-<width>.png`. */
async function picture(page: Page, name: string, fullPage = false): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS_DIR;
  if (!dir) return;
  await page.screenshot({ path: `${dir}/${name}-${page.viewportSize()!.width}.png`, fullPage });
}

async function pageWidth(page: Page): Promise<number> {
  return page.evaluate(() => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(document.documentElement.scrollWidth))));
}

async function withDatabase(run: (db: pg.Client) => Promise<unknown>): Promise<void> {
  const db = new pg.Client({ connectionString: fs.readFileSync(E2E_DATABASE_URL_FILE, "utf8").trim() });
  await db.connect();
  try {
    await run(db);
  } finally {
    await db.end();
  }
}

test.describe("navigation", () => {
  test.use({ storageState: ROLE_STATE.lister });

  test("at 1,440 px a sidebar of labelled groups marks the current page; the team and the account menu are in it", async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto("/health");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav).toBeVisible();
    for (const group of ["Work", "Oversight", "Settings"]) await expect(nav.getByRole("list", { name: group })).toBeVisible();
    await expect(nav.getByRole("list", { name: "Work" }).getByRole("link")).toHaveText(["Inbox", "Webhooks", "Webhook groups", "Events", "Plans"]);
    await expect(nav.getByRole("link", { name: /^Health/ })).toHaveAttribute("aria-current", "page");
    await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
    await expect(page.getByTestId("nav-menu-open")).toBeHidden();
    await expect(page.getByTestId("team-name")).toBeVisible();
    await expect(page.getByTestId("user-name")).toBeVisible();
    // The sidebar sits on the left, the page beside it.
    const sidebar = (await page.locator("header").first().boundingBox())!;
    expect(sidebar.x).toBe(0);
    expect(sidebar.height).toBeGreaterThanOrEqual(880);
    expect((await page.locator("main").boundingBox())!.x).toBeGreaterThanOrEqual(sidebar.width);
    await picture(page, "frame-sidebar");

    // Any page of Settings marks "Settings" (and the section it is).
    await nav.getByRole("link", { name: "Settings" }).click();
    await expect(page).toHaveURL(/\/settings\/credentials$/);
    await expect(nav.getByRole("link", { name: "Settings" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "API credentials" })).toHaveAttribute("aria-current", "page");
    await expectNoSeriousViolations(page, { label: "sidebar on /settings/credentials at 1440" });

    // The account menu opens from the sidebar's foot and closes with Escape.
    await page.getByTestId("user-name").click();
    await expect(page.getByRole("link", { name: "Account and security" })).toBeVisible();
    await picture(page, "frame-account-menu");
    await page.keyboard.press("Escape");
    await expect(page.getByRole("link", { name: "Account and security" })).toBeHidden();
  });

  test("at 390 px “Menu” opens the same navigation as a sheet: focus in, Escape closes, a link closes it", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/webhooks");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    const open = page.getByTestId("nav-menu-open");
    await expect(open).toBeVisible();
    await expect(open).toHaveText("Menu");
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    await picture(page, "frame-topbar");

    await open.click();
    const sheet = page.getByRole("dialog", { name: "Menu" });
    await expect(sheet).toBeVisible();
    await expect(sheet.getByRole("navigation", { name: "Main menu" })).toBeVisible();
    for (const group of ["Work", "Oversight", "Settings"]) await expect(sheet.getByRole("list", { name: group })).toBeVisible();
    await expect(sheet.getByRole("link", { name: "Webhooks", exact: true })).toHaveAttribute("aria-current", "page");
    // The focus moved into the sheet and stays there (the page behind is inert).
    await expect.poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('[data-testid="nav-sheet"]')))).toBe(true);
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[data-testid="nav-sheet"]')))).toBe(true);
    }
    await expectNoSeriousViolations(page, { label: "the menu sheet at 390" });
    await picture(page, "frame-sheet");
    await page.keyboard.press("Escape");
    await expect(sheet).toBeHidden();
    await expect(open).toBeFocused();

    // A link in it navigates and closes it.
    await open.click();
    await sheet.getByRole("link", { name: "Coverage" }).click();
    await expect(page).toHaveURL(/\/coverage/);
    await expect(sheet).toBeHidden();
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  });

  test("/settings lands on the credentials; every section loads, at 1,440 and 390 px, none wider than the screen", async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto("/settings");
    await expect(page).toHaveURL(/\/settings\/credentials$/);
    // An old anchor of the one long page lands on its section.
    await page.goto("/settings#history-heading");
    await expect(page).toHaveURL(/\/settings\/tracking$/);
    await expect(page.getByRole("heading", { level: 1, name: "Change tracking" })).toBeVisible();

    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const section of SETTINGS_SECTIONS) {
        await page.goto(section.path);
        await expect(page.getByRole("heading", { level: 1, name: section.heading, exact: true })).toBeVisible();
        const sections = page.getByRole("navigation", { name: "Settings" });
        await expect(sections).toBeAttached();
        await expect(sections.locator('[aria-current="page"]')).toHaveCount(1);
        expect(await pageWidth(page), `${section.path} at ${width} px`).toBeLessThanOrEqual(width);
        await picture(page, `frame${section.path.replaceAll("/", "-")}`, true);
      }
    }
  });
});

test("the Team page: credentials as their last check left them, who lacks two-factor, a table that fits a phone", async ({ page }) => {
  test.skip(!fs.existsSync(E2E_DATABASE_URL_FILE), "needs the e2e server's own database (scripts/e2e-server.ts)");
  const user = await signUpWithSandbox(page, "frame-team");
  await page.goto("/team");
  const row = page.getByTestId("member-row").filter({ hasText: user.email });
  await expect(row.getByTestId("member-credential")).toContainText(/Connected|Not checked yet/);
  await expect(page.getByTestId("team-two-factor-status")).toContainText("You do not use it yet.");

  // The EMS refused the saved credentials since: not "Saved".
  await withDatabase((db) =>
    db.query(
      `UPDATE "ApiCredential" SET "lastErrorAt" = now(), "lastError" = 'The EMS API rejected these credentials.', "lastErrorCode" = 'ems_credentials_rejected'
       WHERE "userId" = (SELECT "id" FROM "User" WHERE "email" = $1)`,
      [user.email],
    ),
  );
  await page.reload();
  await expect(row.getByTestId("member-credential")).toHaveText(/Rejected/);
  await expect(page.getByTestId("member-list")).not.toContainText("Saved");

  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await pageWidth(page), `/team at ${width} px`).toBeLessThanOrEqual(width);
    // Measured once it is on screen (a refresh may draw the list again as the width changes).
    await expect
      .poll(async () => {
        const table = await page.getByTestId("member-list").boundingBox();
        return table ? table.x + table.width : Number.POSITIVE_INFINITY;
      })
      .toBeLessThanOrEqual(width);
    await expectNoSeriousViolations(page, { label: `/team at ${width}` });
    await picture(page, "frame-team-rows", true);
  }
  // On a phone a member is two short lines, not a card of key/value pairs.
  await page.setViewportSize({ width: 390, height: 900 });
  expect((await row.boundingBox())!.height).toBeLessThan(80);
});

test("“Confirm it's you” opens with no red refusal behind it, and Cancel leaves none", async ({ page }) => {
  test.skip(!fs.existsSync(E2E_DATABASE_URL_FILE), "needs the e2e server's own database (scripts/e2e-server.ts)");
  const user = await signUpWithSandbox(page, "frame-reauth");
  // This session proved who is using it an hour ago: an invitation needs a fresh proof.
  await withDatabase((db) =>
    db.query(`UPDATE "UserSession" SET "reauthenticatedAt" = "reauthenticatedAt" - interval '1 hour' WHERE "userId" = (SELECT "id" FROM "User" WHERE "email" = $1)`, [
      user.email,
    ]),
  );
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/team");
    await page.getByRole("button", { name: "Create invitation link" }).click();
    const dialog = page.getByTestId("reauth-dialog");
    await expect(dialog.getByRole("heading", { name: "Confirm it's you" })).toBeVisible();
    await expect(page.locator("main").getByRole("alert")).toHaveCount(0);
    await expect(page.getByTestId("invite-form-error")).toHaveCount(0);
    await picture(page, "frame-reauth");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.locator("main").getByRole("alert")).toHaveCount(0);
  }
  // Confirmed, the same submission goes through.
  await page.getByRole("button", { name: "Create invitation link" }).click();
  const dialog = page.getByTestId("reauth-dialog");
  await dialog.getByLabel("Your password").fill(user.password);
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByTestId("invitation-created")).toBeVisible();
  await expect(page.locator("main").getByRole("alert")).toHaveCount(0);

  // The Sessions page is as wide as the other settings pages.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/account/sessions");
  const sessions = (await page.getByTestId("session-list").boundingBox())!;
  await page.goto("/account");
  const security = (await page.getByTestId("two-factor-section").boundingBox())!;
  expect(Math.abs(sessions.width - security.width)).toBeLessThanOrEqual(2);
});
