import { expect, test, type Page } from "@playwright/test";
import { shoot } from "./helpers/screenshots";
import { signUpWithSandbox } from "./listing-helpers";

test.describe.configure({ timeout: 120_000 });

const dialog = (page: Page) => page.getByTestId("confirm-dialog");

test("destructive actions ask first: Cancel and Esc keep, confirming does it and says so in a toast", async ({ page }) => {
  await signUpWithSandbox(page, "careful");

  // Withdrawing an invitation.
  await page.goto("/team");
  await page.getByRole("button", { name: "Create invitation link" }).click();
  await expect(page.getByTestId("invitation-list").locator("li")).toHaveCount(1);
  await page.getByRole("button", { name: "Withdraw…" }).click();
  await expect(dialog(page)).toContainText("Withdraw this invitation?");
  await shoot(page, "confirm-dialog", false);
  await dialog(page).getByRole("button", { name: "Cancel" }).click();
  await expect(dialog(page)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Withdraw…" })).toBeFocused();
  await page.reload();
  await expect(page.getByTestId("invitation-list").locator("li")).toHaveCount(1);
  await page.getByRole("button", { name: "Withdraw…" }).click();
  await dialog(page).getByRole("button", { name: "Withdraw invitation" }).click();
  await expect(page.getByText("Invitation withdrawn: its link no longer works.")).toBeVisible();
  await expect(page.getByTestId("no-invitations")).toBeVisible();

  // Deleting credentials: Esc keeps them, confirming deletes them.
  await page.goto("/settings/credentials");
  await page.getByRole("button", { name: "Delete credentials…" }).click();
  await expect(dialog(page)).toContainText("Delete your API credentials?");
  await page.keyboard.press("Escape");
  await expect(dialog(page)).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("credential-summary")).toBeVisible();
  await page.getByRole("button", { name: "Delete credentials…" }).click();
  await dialog(page).getByRole("button", { name: "Yes, delete them" }).click();
  await expect(page.getByText("Your API credentials were deleted.")).toBeVisible();
  await expect(page.getByTestId("no-credentials")).toBeVisible();

  // Signing out everywhere: Cancel stays signed in.
  await page.goto("/account");
  await page.getByRole("button", { name: "Sign out of all sessions…" }).click();
  await dialog(page).getByRole("button", { name: "Cancel" }).click();
  await page.reload();
  await expect(page.getByRole("heading", { name: "Security", exact: true })).toBeVisible();
});

test("without JavaScript the confirming button is a plain submit: signing out everywhere still works", async ({ page, browser }) => {
  await signUpWithSandbox(page, "nojs-careful");
  const storageState = await page.context().storageState();
  const context = await browser.newContext({ storageState, javaScriptEnabled: false });
  const plain = await context.newPage();
  await plain.goto("/account");
  await plain.getByTestId("sign-out-everywhere").click();
  // The server action ended every session: the next page is the sign-in page.
  await plain.goto("/settings/credentials");
  await expect(plain).toHaveURL(/\/sign-in/);
  await context.close();
  await page.goto("/settings/credentials");
  await expect(page).toHaveURL(/\/sign-in/);
});
