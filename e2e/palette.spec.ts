import { expect, test, type Page } from "@playwright/test";
import { newTestUser, signUp } from "./helpers/auth";
import { shoot } from "./helpers/screenshots";
import { apiList, signUpWithSandbox } from "./listing-helpers";

test.describe.configure({ timeout: 120_000 });

const palette = (page: Page) => page.getByTestId("command-palette");
const input = (page: Page) => page.getByTestId("palette-input");

async function openWithKeyboard(page: Page): Promise<void> {
  // The shortcut works once the page is interactive.
  await expect(page.getByTestId("palette-open")).toHaveAttribute("data-ready", "true");
  await page.keyboard.press("Control+K");
  await expect(palette(page)).toBeVisible();
  await expect(input(page)).toBeFocused();
}

test("Ctrl+K jumps to a page, to a webhook group by number and by name; Esc closes; the header button opens it too", async ({ page }) => {
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

  // A group by a part of its name, searched on the server; arrows move, Enter opens.
  const part = first.name.slice(0, Math.min(6, first.name.length)).trim();
  await openWithKeyboard(page);
  await input(page).fill(part);
  const found = page.getByTestId("palette-group");
  await expect(found.first()).toBeVisible({ timeout: 15_000 });
  const ids = await found.evaluateAll((items) => items.map((item) => item.textContent ?? ""));
  expect(ids.some((text) => text.includes(`#${first.id}`))).toBe(true);
  await expect(found.first()).toHaveAttribute("data-selected", "true");
  if ((await found.count()) > 1) {
    await input(page).press("ArrowDown");
    await expect(found.nth(1)).toHaveAttribute("data-selected", "true");
    await input(page).press("ArrowUp");
  }
  const target = (await found.first().textContent())!.match(/#(\d+)$/)![1];
  await input(page).press("Enter");
  await expect(page).toHaveURL(new RegExp(`/webhook-groups/${target}$`));

  // Nothing found says so; Esc closes and gives the page back.
  await openWithKeyboard(page);
  await input(page).fill("zz no such group zz");
  await expect(page.getByTestId("palette-group-none")).toBeVisible({ timeout: 15_000 });
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

test("without credentials, a name search says how to connect", async ({ page }) => {
  await signUp(page, newTestUser("unconnected"));
  await page.goto("/team");
  await openWithKeyboard(page);
  await input(page).fill("sync");
  await expect(page.getByTestId("palette-group-error")).toHaveText("Connect an EMS account in Settings to search webhook groups.", { timeout: 15_000 });
  await page.keyboard.press("Escape");
  await expect(palette(page)).toHaveCount(0);
});
