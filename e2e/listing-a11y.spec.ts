import { expect, test } from "@playwright/test";
import { ROLE_STATE } from "./helpers/config";
import { expectNoSeriousViolations } from "./helpers/axe";

test.describe.configure({ timeout: 240_000 });
test.use({ storageState: ROLE_STATE.lister });

// Every page at both widths is e2e/page-widths.spec.ts; here, the listing's open popovers.
test("the toolbar's popovers have no serious or critical axe violations", async ({ page }) => {
  await page.goto("/events?filter=status%3Dlive");
  await expect(page.getByTestId("listing-toolbar")).toHaveAttribute("data-ready", "true");
  for (const open of ["add-filter", "columns-menu", "sort-menu", "ids-control"]) {
    await page.getByTestId(open).click();
    await expect(page.locator("[data-radix-popper-content-wrapper]")).toBeVisible();
    await expectNoSeriousViolations(page);
    await page.keyboard.press("Escape");
    await expect(page.locator("[data-radix-popper-content-wrapper]")).toHaveCount(0);
  }
});

test("filters, sorting and pagination work from the keyboard alone", async ({ page }) => {
  await page.goto("/webhook-groups");
  await expect(page.getByTestId("listing-table")).toBeVisible();
  await expect(page.getByTestId("listing-toolbar")).toHaveAttribute("data-ready", "true");

  // "+ Filter" from the keyboard: field, condition and value in turn, applied with Enter.
  await page.getByTestId("add-filter").focus();
  await page.keyboard.press("Enter");
  const editor = page.getByTestId("filter-editor");
  await expect(editor.getByLabel("Value")).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(editor.getByLabel("Condition")).toBeFocused();
  await page.keyboard.type("b"); // "begins with"
  await expect(editor.getByLabel("Condition")).toHaveValue("=*beginswith*");
  await page.keyboard.press("Tab");
  await expect(editor.getByLabel("Value")).toBeFocused();
  await page.keyboard.type("Sync");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/filter=name%3D\*beginswith\*Sync/);

  // Removing a chip by keyboard puts focus on "+ Filter".
  await page.getByRole("button", { name: /^Remove filter: Name begins with Sync/ }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/webhook-groups$/);
  await expect(page.getByTestId("add-filter")).toBeFocused();

  // Sorting: headers are links; Enter sorts by one, Shift+Enter adds it as the next level. A link is
  // focused once it is on screen (a streamed table is moved into place, which takes the focus away).
  const pressOn = async (testId: string, key = "Enter") => {
    await expect(page.getByTestId(testId)).toBeVisible();
    await page.getByTestId(testId).focus();
    await page.keyboard.press(key);
  };
  await pressOn("sort-name");
  await expect(page).toHaveURL(/sort=name$/);
  await pressOn("sort-id", "Shift+Enter");
  await expect(page).toHaveURL(/sort=name%2Cid$/);

  // Pagination, once the new page has replaced the old one's links (the URL changes first).
  await expect(page.getByTestId("page-next")).toHaveAttribute("href", /sort=name%2Cid/);
  await pressOn("page-next");
  await expect(page).toHaveURL(/page=2/);
  await page.getByLabel("Go to page").fill("3");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/page=3/);
});
