import { expect, test, type Page } from "@playwright/test";
import { newTestUser, signOut, signUp } from "./helpers/auth";
import { startOwnServer } from "./helpers/own-server";
import { shoot } from "./helpers/screenshots";

test.describe.configure({ timeout: 180_000 });

const checklist = (page: Page) => page.getByTestId("first-run-checklist");
const step = (page: Page, key: "connect" | "groups" | "view" | "invite") => page.getByTestId(`first-run-step-${key}`);

async function expectDone(page: Page, done: Record<"connect" | "groups" | "view" | "invite", boolean>): Promise<void> {
  for (const [key, value] of Object.entries(done)) await expect(step(page, key as keyof typeof done), key).toHaveAttribute("data-done", String(value));
  const count = Object.values(done).filter(Boolean).length;
  await expect(page.getByTestId("first-run-progress")).toHaveText(`· ${count} of 4 done`);
}

test("after sign-up a checklist leads through the first steps, ticks each one done, and once dismissed stays gone", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signUp(page, newTestUser("newcomer"));
  // Sign-up lands on the webhook groups listing, with the checklist above it.
  await expect(page).toHaveURL(/\/webhook-groups/);
  await expect(checklist(page)).toBeVisible();
  await expect(checklist(page).getByRole("heading", { name: /Get started/ })).toBeVisible();
  await expectDone(page, { connect: false, groups: false, view: false, invite: false });
  await shoot(page, "checklist", false);

  // 1. Connect: the step's link leads to Settings, where the sandbox is one click.
  await step(page, "connect").click();
  await expect(page).toHaveURL(/\/settings\/credentials$/);
  await page.getByRole("button", { name: "Use the sandbox" }).click();
  await expect(page.getByTestId("sandbox-quick-start-success")).toBeVisible({ timeout: 30_000 });
  // Connected: the one next step is the webhooks list.
  await expect(page.getByRole("link", { name: "Open your webhooks" })).toHaveAttribute("href", "/webhooks");

  // 2. Seeing the groups with working credentials ticks the second step.
  await page.getByRole("link", { name: "Webhook groups" }).first().click();
  await expect(page.getByTestId("listing-table")).toBeVisible({ timeout: 30_000 });
  await expectDone(page, { connect: true, groups: true, view: false, invite: false });

  // 3. Save a view of the list.
  await page.goto("/webhook-groups?sort=-id");
  await page.getByTestId("save-view-toggle").click();
  const form = page.getByTestId("save-view-form");
  await form.getByLabel("Name").fill("Newest first");
  await form.getByRole("button", { name: "Save view" }).click();
  await expect(page).toHaveURL(/view=/);
  await page.reload();
  await expectDone(page, { connect: true, groups: true, view: true, invite: false });

  // The palette offers the saved view.
  await expect(page.getByTestId("palette-open")).toHaveAttribute("data-ready", "true");
  await page.keyboard.press("Control+K");
  await page.getByTestId("palette-input").fill("Newest");
  await expect(page.getByTestId("command-palette").getByRole("option", { name: /Newest first/ })).toBeVisible();
  await page.getByTestId("palette-input").press("Enter");
  await expect(page).toHaveURL(/\/webhook-groups\?.*view=/);

  // 4. Invite a teammate: the link is made, and copying it says "Copied" for a moment.
  await step(page, "invite").click();
  await expect(page).toHaveURL(/\/team$/);
  await page.getByRole("button", { name: "Create invitation link" }).click();
  const link = await page.getByTestId("invitation-link").inputValue();
  const copy = page.getByTestId("copy-invitation-link");
  await expect(copy).toHaveText("Copy link");
  await copy.click();
  await expect(copy).toHaveText("Copied");
  await expect(page.getByText("Invitation link copied.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await expect(copy).toHaveText("Copy link", { timeout: 5_000 });

  // All done: a short "All set", dismissed for good.
  await page.goto("/webhook-groups");
  await expect(checklist(page).getByRole("heading", { name: /All set/ })).toBeVisible();
  await expect(page.getByTestId("first-run-all-set")).toBeVisible();
  await expect(page.getByTestId("first-run-progress")).toHaveText("· 4 of 4 done");
  await shoot(page, "checklist-all-set", false);
  await page.getByTestId("first-run-dismiss").click();
  await expect(checklist(page)).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("listing-table")).toBeVisible();
  await expect(checklist(page)).toHaveCount(0);
});

test("the checklist can be dismissed before anything is done, and does not come back", async ({ page }) => {
  await signUp(page, newTestUser("impatient"));
  await expect(checklist(page)).toBeVisible();
  await checklist(page).getByRole("button", { name: "Dismiss the checklist" }).click();
  await expect(checklist(page)).toHaveCount(0);
  await page.goto("/");
  await expect(page).toHaveURL(/\/webhook-groups/);
  await expect(page.getByTestId("user-name")).toBeVisible();
  await expect(checklist(page)).toHaveCount(0);
});

test("an empty portal opens on what EMS Portal is and 'Set up EMS Portal'; once someone exists, the sign-in page says 'Sign in to EMS Portal'", async ({ browser }) => {
  // A portal of its own, on a database with nobody in it, as a fresh install is, on a free port.
  const portal = await startOwnServer({ env: { SIGNUP_MODE: "invite-only" } });
  const context = await browser.newContext({ baseURL: portal.baseUrl });
  try {
    const page = await context.newPage();
    await page.goto("/");
    await expect(page).toHaveURL(/\/sign-in/);
    await expect(page.getByRole("heading", { name: "Welcome to EMS Portal" })).toBeVisible();
    await expect(page.getByTestId("portal-intro")).toContainText("EMS Portal is where your team watches the webhooks");
    await expect(page.getByText("Welcome back")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Sign in" })).toHaveCount(0);
    await shoot(page, "first-run-empty", false);

    await page.getByRole("link", { name: "Set up EMS Portal" }).click();
    await expect(page).toHaveURL(/\/sign-up$/);
    await expect(page.getByRole("heading", { name: "Set up EMS Portal" })).toBeVisible();
    await shoot(page, "first-run-set-up", false);
    const first = newTestUser("founder");
    await page.getByLabel("Your name").fill(first.name);
    await page.getByLabel("Email").fill(first.email);
    await page.getByLabel("Password", { exact: true }).fill(first.password);
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByTestId("user-name")).toHaveText(first.name, { timeout: 30_000 });
    await page.goto("/team");
    await expect(page.getByText(/you are owner/)).toBeVisible();

    // With someone in it, the portal asks to sign in, and says where.
    await signOut(page);
    await expect(page.getByRole("heading", { name: "Sign in to EMS Portal" })).toBeVisible();
    await expect(page.getByTestId("portal-intro")).toHaveCount(0);
    await shoot(page, "sign-in", false);
  } finally {
    await context.close();
    await portal.close();
  }
});
