import { expect, type Page } from "@playwright/test";
import { randomUUID } from "node:crypto";

export interface TestUser {
  name: string;
  email: string;
  password: string;
}

/** A new person for one test: each test seeds its own data. */
export function newTestUser(prefix = "user"): TestUser {
  const id = randomUUID().slice(0, 8);
  return { name: `${prefix} ${id}`, email: `${prefix}-${id}@example.test`, password: `correct horse ${id} battery` };
}

export async function signUp(page: Page, user: TestUser, options: { invite?: string } = {}): Promise<void> {
  await page.goto(options.invite ? `/sign-up?invite=${encodeURIComponent(options.invite)}` : "/sign-up");
  await page.getByLabel("Your name").fill(user.name);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Create account" }).click();
  // Hashing, signing in and the first render of the landing page: allow more than the default.
  await expect(page.getByTestId("user-name")).toHaveText(user.name, { timeout: 30_000 });
}

export async function signIn(page: Page, user: Pick<TestUser, "email" | "password">, path = "/sign-in"): Promise<void> {
  await page.goto(path);
  await fillSignIn(page, user);
  await expect(page.getByTestId("user-name")).toBeVisible({ timeout: 30_000 });
}

export async function fillSignIn(page: Page, user: Pick<TestUser, "email" | "password">): Promise<void> {
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

export async function signOut(page: Page): Promise<void> {
  const signOutButton = page.getByRole("button", { name: "Sign out", exact: true });
  // A click on the account menu before the page has hydrated opens nothing: click until it opens.
  await expect(async () => {
    if (!(await signOutButton.isVisible())) await page.getByTestId("user-name").click();
    await expect(signOutButton).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await signOutButton.click();
  await expect(page).toHaveURL(/\/sign-in/);
}
