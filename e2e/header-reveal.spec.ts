// Webhook header values stay out of pages (docs/SECURITY.md, "Finding 2"): a group's page, as HTML
// and as the RSC payload of a client navigation, carries header names and no value of the sandbox's
// account; "Reveal" asks the server for one value, which wants a recent re-authentication (this spec
// ages its own session past the window in the e2e server's throw-away database), shows it, and
// "Hide" forgets it. The reveal is in the team's audit log.
import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { E2E_DATABASE_URL_FILE } from "./helpers/config";
import { apiList, signUpWithSandbox } from "./listing-helpers";

test.describe.configure({ timeout: 120_000 });

type Header = { key: string; value: string };
type Hook = { id: number; name: string; headers: Header[] };
type Group = { id: number; name: string; headers: Header[]; webhooks: Hook[] };

/** Every header value of the demo account (groups' and webhooks'), straight from the API. */
async function demoAccount(): Promise<{ groups: Group[]; values: string[] }> {
  const groups = (await apiList("webhook-groups", "expand=webhooks&per-page=200")).items as unknown as Group[];
  const values = groups.flatMap((group) => [...group.headers, ...group.webhooks.flatMap((hook) => hook.headers)].map((header) => header.value));
  return { groups, values: [...new Set(values)].filter((value) => value.length >= 6) };
}

function expectNoValue(body: string, values: readonly string[], what: string): void {
  const found = values.filter((value) => body.includes(value));
  expect(found, `header values in ${what}`).toEqual([]);
}

/** This person's sessions last proved who is using them an hour ago (time moves on the server). */
async function ageSessions(email: string): Promise<void> {
  const db = new pg.Client({ connectionString: fs.readFileSync(E2E_DATABASE_URL_FILE, "utf8").trim() });
  await db.connect();
  try {
    await db.query(
      `UPDATE "UserSession" SET "reauthenticatedAt" = "reauthenticatedAt" - interval '1 hour' WHERE "userId" = (SELECT "id" FROM "User" WHERE "email" = $1)`,
      [email],
    );
  } finally {
    await db.end();
  }
}

/** With E2E_SCREENSHOTS_DIR: the group's headers at 1440 and 390 px, never wider than the screen. */
async function shootHeaders(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS_DIR;
  if (!dir) return;
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.getByRole("heading", { level: 1 }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${dir}/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test("a group's page carries no header value; Reveal asks for a recent sign-in, shows one value, and Hide forgets it", async ({ page }) => {
  test.skip(!fs.existsSync(E2E_DATABASE_URL_FILE), "needs the e2e server's own database (scripts/e2e-server.ts)");
  const user = await signUpWithSandbox(page, "revealer");
  const { groups, values } = await demoAccount();
  expect(values.length).toBeGreaterThan(10);
  // A group with an API key of its own and a webhook with one (X-Api-Key: k-…, Authorization: Bearer …).
  const secret = (header: Header) => /^(k-|Bearer )/.test(header.value);
  const group = groups.find((each) => each.headers.some(secret) && each.webhooks.some((hook) => hook.headers.some(secret)))!;
  const groupHeader = group.headers.find(secret)!;
  const hook = group.webhooks.find((each) => each.headers.some(secret))!;
  const hookHeader = hook.headers.find(secret)!;

  // The page as a signed-in member receives it: the HTML (with its inline RSC payload), and the
  // RSC payload a client navigation fetches. Names yes, values no, of any group of the account.
  const html = await page.request.get(`/webhook-groups/${group.id}`);
  expect(html.status()).toBe(200);
  const body = await html.text();
  expect(body).toContain(groupHeader.key);
  expectNoValue(body, values, "the group page's HTML");
  const flight = await page.request.get(`/webhook-groups/${group.id}`, { headers: { RSC: "1" } });
  expect(flight.headers()["content-type"]).toContain("text/x-component");
  const payload = await flight.text();
  expect(payload).toContain(groupHeader.key);
  expectNoValue(payload, values, "the group page's RSC payload");
  // The listing with the webhooks shown, too.
  expectNoValue(await (await page.request.get("/webhook-groups?expand=webhooks&per-page=200")).text(), values, "the listing");

  await ageSessions(user.email);
  await page.goto(`/webhook-groups/${group.id}`);
  const groupHeaders = page.getByTestId("group-details").getByTestId("header-list").first();
  await expect(groupHeaders.getByTestId("header").filter({ hasText: groupHeader.key })).toHaveCount(1);
  await expect(page.getByTestId("header-value")).toHaveCount(0);
  await shootHeaders(page, "group-headers-hidden");

  // A stale session: "Confirm it's you", then the same request goes through.
  await groupHeaders
    .getByRole("button", { name: `Reveal the value of ${groupHeader.key}` })
    .first()
    .click();
  const dialog = page.getByTestId("reauth-dialog");
  await expect(dialog.getByRole("heading", { name: "Confirm it's you" })).toBeVisible();
  await dialog.getByLabel("Your password").fill(user.password);
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(dialog).toBeHidden();
  const shown = groupHeaders.getByTestId("header-value");
  await expect(shown).toHaveText(groupHeader.value);
  // The button pressed is gone: focus is on "Hide", in its place.
  await expect(groupHeaders.getByRole("button", { name: `Hide the value of ${groupHeader.key}` })).toBeFocused();
  expect(page.url()).not.toContain(groupHeader.value);
  await shootHeaders(page, "group-headers-revealed");

  // Hide forgets it; focus goes back to "Reveal".
  await page.keyboard.press("Enter");
  await expect(groupHeaders.getByTestId("header-value")).toHaveCount(0);
  await expect(groupHeaders.getByRole("button", { name: `Reveal the value of ${groupHeader.key}` }).first()).toBeFocused();

  // A webhook's header from the keyboard, now with a recent sign-in: no dialog.
  const card = page.locator(`[data-testid="webhook-card"][data-webhook-id="${hook.id}"]`);
  await card
    .getByRole("button", { name: `Reveal the value of ${hookHeader.key}` })
    .first()
    .focus();
  await page.keyboard.press("Enter");
  await expect(card.getByTestId("header-value").first()).toHaveText(hookHeader.value);
  await expect(dialog).toBeHidden();

  // A later load of the page still carries no value.
  expectNoValue(await (await page.request.get(`/webhook-groups/${group.id}`)).text(), values, "the page loaded again");

  // On the team's record, by name.
  await page.goto("/audit");
  const sentences = page.getByTestId("audit-sentence");
  await expect(sentences.filter({ hasText: `revealed the value of the header ${hookHeader.key} of the webhook` }).first()).toBeVisible();
  await expect(sentences.filter({ hasText: `revealed the value of the header ${groupHeader.key} of the webhook group` }).first()).toBeVisible();
  expectNoValue(await page.content(), values, "the audit log");
});
