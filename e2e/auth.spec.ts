import { expect, test } from "@playwright/test";
import { fillSignIn, newTestUser, signIn, signOut, signUp } from "./helpers/auth";

test.describe("sign-up and sign-in", () => {
  test("a new person signs up, signs out and signs in again", async ({ page }) => {
    const user = newTestUser("alice");
    await signUp(page, user);
    await expect(page.getByTestId("team-name")).toHaveText(`${user.name}'s team`);
    await signOut(page);
    await signIn(page, user);
    await expect(page.getByTestId("user-name")).toHaveText(user.name);
  });

  test("sign-up refuses a short or common password and keeps what was typed", async ({ page }) => {
    const user = newTestUser("bob");
    await page.goto("/sign-up");
    await page.getByLabel("Your name").fill(user.name);
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password", { exact: true }).fill("short");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText("Use at least 12 characters.")).toBeVisible();
    await expect(page.getByLabel("Your name")).toHaveValue(user.name);
    await expect(page.getByLabel("Email")).toHaveValue(user.email);

    await page.getByLabel("Password", { exact: true }).fill("password1234");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText("This password is one of the most common ones. Choose another.")).toBeVisible();
  });

  test("a wrong password gets one generic message", async ({ page }) => {
    const user = newTestUser("carol");
    await signUp(page, user);
    await signOut(page);
    await fillSignIn(page, { email: user.email, password: "not the right password" });
    await expect(page.getByTestId("form-error")).toHaveText("Wrong email or password.");
    await fillSignIn(page, { email: `nobody-${user.email}`, password: user.password });
    await expect(page.getByTestId("form-error")).toHaveText("Wrong email or password.");
  });

  test("ten wrong passwords from one address lock that address out of the account, with the time to wait; the owner still gets in from theirs", async ({
    page,
    browser,
  }) => {
    // Eleven password checks (argon2, on purpose slow) beside two other workers on two cores.
    test.setTimeout(150_000);
    const user = newTestUser("dave");
    await signUp(page, user); // from the owner's own address, which now has a session of theirs
    await signOut(page);

    // Someone elsewhere. The e2e server trusts one proxy hop (TRUSTED_PROXY_COUNT=1), so a browser
    // that sends X-Forwarded-For plays a client at that address; every other test's browser is
    // 127.0.0.1.
    const elsewhere = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": "198.51.100.66" } });
    const attacker = await elsewhere.newPage();
    await attacker.goto("/sign-in");
    for (let attempt = 1; attempt <= 10; attempt++) {
      await fillSignIn(attacker, { email: user.email, password: `wrong password ${attempt}` });
      await expect(attacker.getByTestId("form-error")).toHaveText("Wrong email or password.");
    }
    // Even the right password is refused there now, and the form says for how long.
    await fillSignIn(attacker, user);
    await expect(attacker.getByTestId("form-error")).toHaveText("Too many failed sign-in attempts. Try again in 15 minutes.");
    await expect(attacker).toHaveURL(/\/sign-in/);
    await elsewhere.close();

    // The owner, at their own address, is not locked out by what happened elsewhere.
    await signIn(page, user);
    await expect(page.getByTestId("user-name")).toHaveText(user.name);
  });

  test("a protected page sends a signed-out visitor to sign in and back", async ({ page }) => {
    const user = newTestUser("erin");
    await signUp(page, user);
    await signOut(page);
    await page.goto("/account");
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Faccount/);
    await fillSignIn(page, user);
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole("heading", { name: "Security", exact: true })).toBeVisible();
  });

  test("signing out of all sessions ends the session in another browser", async ({ page, browser }) => {
    const user = newTestUser("frank");
    await signUp(page, user);

    const otherContext = await browser.newContext();
    const otherPage = await otherContext.newPage();
    await signIn(otherPage, user, "/sign-in?callbackUrl=%2Faccount");
    await expect(otherPage.getByRole("heading", { name: "Security", exact: true })).toBeVisible();

    await page.goto("/account");
    await page.getByRole("button", { name: "Sign out of all sessions…" }).click();
    await page.getByTestId("confirm-dialog").getByRole("button", { name: "Sign out everywhere" }).click();
    await expect(page).toHaveURL(/\/sign-in/);

    await otherPage.reload();
    await expect(otherPage).toHaveURL(/\/sign-in/);
    await otherContext.close();
  });

  test("changing the password keeps this browser signed in and ends the others", async ({ page, browser }) => {
    const user = newTestUser("gina");
    await signUp(page, user);
    const otherContext = await browser.newContext();
    const otherPage = await otherContext.newPage();
    await signIn(otherPage, user);

    await page.goto("/account");
    const newPassword = `${user.password} renewed`;
    await page.getByLabel("Current password").fill(user.password);
    await page.getByLabel("New password", { exact: true }).fill(newPassword);
    await page.getByLabel("Repeat the new password").fill(newPassword);
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByText("Password changed. Other sessions have been signed out.")).toBeVisible();
    await page.reload();
    await expect(page.getByRole("heading", { name: "Security", exact: true })).toBeVisible();

    await otherPage.goto("/account");
    await expect(otherPage).toHaveURL(/\/sign-in/);
    await otherContext.close();
  });

  test("the health check reports the database", async ({ request }) => {
    const response = await request.get("/api/health");
    expect(response.status()).toBe(200);
    expect(await response.json()).toMatchObject({ status: "ok", database: "reachable" });
  });
});
