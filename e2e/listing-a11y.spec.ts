import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { ROLE_STATE } from "./helpers/config";

test.describe.configure({ timeout: 240_000 });
test.use({ storageState: ROLE_STATE.lister });

async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}

test("listing pages have no serious or critical axe violations", async ({ page }) => {
  for (const url of [
    "/webhook-groups?expand=webhooks&filter=name%3D*contains*a&filter=id%3E1&searchCondition=or&sort=-id,name",
    "/webhook-groups?ids=1,x",
    "/webhook-groups/3",
    "/events?sort=-start_date",
    "/views",
  ]) {
    await page.goto(url);
    await page.waitForLoadState("networkidle");
    await expectNoSeriousViolations(page);
  }
});

// Apart from the listings, so that the two run on different workers: axe reads every cell of a grid.
test("coverage, health and event pages have no serious or critical axe violations", async ({ page }) => {
  for (const url of ["/coverage?q=Paris&scope=all", "/health", "/events/999999"]) {
    await page.goto(url);
    await page.waitForLoadState("networkidle");
    await expectNoSeriousViolations(page);
  }
});

test("filter builder, sorting and pagination work from the keyboard alone", async ({ page }) => {
  await page.goto("/webhook-groups");
  await expect(page.getByTestId("listing-table")).toBeVisible();
  await expect(page.getByTestId("filter-builder")).toHaveAttribute("data-ready", "true");

  // Filter builder: add a row, pick field and operator by typing, enter a value, submit with Enter.
  await page.getByRole("button", { name: "Add filter" }).focus();
  await page.keyboard.press("Enter");
  const row = page.getByRole("group", { name: "Filter 1" });
  await expect(row.getByLabel("Field")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(row.getByLabel("Operator")).toBeFocused();
  await page.keyboard.type("c"); // "contains"
  await expect(row.getByLabel("Operator")).toHaveValue("=*contains*");
  await page.keyboard.press("Tab");
  await expect(row.getByLabel("Value")).toBeFocused();
  await page.keyboard.type("sync");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/filter=name%3D\*contains\*sync/);
  await expect(page.getByTestId("filter-builder")).toHaveAttribute("data-ready", "true");

  // Removing a row by keyboard puts focus back on "Add filter".
  await page.getByRole("button", { name: "Remove filter 1" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Add filter" })).toBeFocused();

  // Sorting: headers are links. A link is focused once it is on screen: React streams a table in
  // hidden and then moves it into place, which would take the focus away from a link focused early.
  const pressEnterOn = async (testId: string) => {
    await expect(page.getByTestId(testId)).toBeVisible();
    await page.getByTestId(testId).focus();
    await page.keyboard.press("Enter");
  };
  await page.goto("/webhook-groups");
  await pressEnterOn("sort-name");
  await expect(page).toHaveURL(/sort=name/);
  await pressEnterOn("then-by-id");
  await expect(page).toHaveURL(/sort=name%2Cid/);

  // Pagination, once the new page has replaced the old one's links (the URL changes first).
  await expect(page.getByTestId("page-next")).toHaveAttribute("href", /sort=name%2Cid/);
  await pressEnterOn("page-next");
  await expect(page).toHaveURL(/page=2/);
  await page.getByLabel("Go to page").fill("3");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/page=3/);
});
