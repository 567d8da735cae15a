import { expect, test, type Browser } from "@playwright/test";
import { newTestUser, signIn, signUp } from "./helpers/auth";

const LAPTOP = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:128.0) Gecko/20100101 Firefox/128.0";
const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const DESKTOP = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0";
const SESSIONS = "/sign-in?callbackUrl=%2Faccount%2Fsessions";

async function browserAs(browser: Browser, userAgent: string) {
  const context = await browser.newContext({ userAgent });
  return context.newPage();
}

test("the sessions page ends another browser's session at its next request, and 'sign out of other sessions' keeps this one", async ({ browser }) => {
  const user = newTestUser("sessions");
  const laptop = await browserAs(browser, LAPTOP);
  await signUp(laptop, user);
  const [phone, desktop] = await Promise.all([browserAs(browser, PHONE), browserAs(browser, DESKTOP)]);
  await Promise.all([signIn(phone, user, SESSIONS), signIn(desktop, user, SESSIONS)]);

  // Every session, in words; this one first and marked.
  await laptop.goto("/account/sessions");
  const sessions = laptop.getByTestId("session-list").getByTestId("session");
  await expect(sessions).toHaveCount(3);
  await expect(sessions.first()).toContainText("Firefox 128 on macOS");
  await expect(sessions.first()).toContainText("This session");
  const phoneSession = sessions.filter({ hasText: "Safari 17 on iOS 17 (iPhone)" });
  await expect(phoneSession).toContainText("Signed in");

  // End the phone's session, after a confirmation: its next request lands on the sign-in page.
  await phoneSession.getByRole("button", { name: "End session…" }).click();
  await laptop.getByTestId("confirm-dialog").getByRole("button", { name: "Yes, end session" }).click();
  await expect(sessions).toHaveCount(2);
  await phone.reload();
  await expect(phone).toHaveURL(/\/sign-in\?callbackUrl=/);

  // "Sign out of other sessions" ends the desktop's and keeps the laptop's.
  await laptop.getByRole("button", { name: "Sign out of other sessions…" }).click();
  await laptop.getByTestId("confirm-dialog").getByRole("button", { name: "Yes, sign out of it" }).click();
  await expect(laptop.getByText("Signed out of 1 other session.")).toBeVisible();
  await expect(sessions).toHaveCount(1);
  await desktop.reload();
  await expect(desktop).toHaveURL(/\/sign-in\?callbackUrl=/);
  await laptop.reload();
  await expect(sessions.first()).toContainText("This session");

  await Promise.all([laptop, phone, desktop].map((page) => page.context().close()));
});
