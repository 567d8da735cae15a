import { expect, test, type Page } from "@playwright/test";
import { newTestUser, signUp } from "./helpers/auth";
import { shoot } from "./helpers/screenshots";
import { expectNoSeriousViolations } from "./helpers/axe";

// The sandbox's second built-in account (lib/sandbox/demo-credentials.ts), typed in by hand.
const OTHER_KEY = "ems_other_key";
const OTHER_SECRET = "other-secret-123";

async function createInvitationLink(page: Page, role: "Member" | "Admin" = "Member"): Promise<string> {
  await page.goto("/team");
  await page.getByLabel("Role", { exact: true }).selectOption({ label: role });
  await page.getByRole("button", { name: "Create invitation link" }).click();
  const link = page.getByTestId("invitation-link");
  await expect(link).toHaveValue(/\/invite\/[A-Za-z0-9_-]{43}$/);
  return link.inputValue();
}

test.describe("teams and credentials", () => {
  test("an owner invites, a second browser joins by the link, each tests their own sandbox credentials, and a removed member's next click lands on sign-in", async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const owner = newTestUser("owner");
    await signUp(page, owner);
    const teamName = `${owner.name}'s team`;
    const link = await createInvitationLink(page);
    await expect(page.getByTestId("invitation-list")).toContainText("Member");

    // The second person, in a browser of their own, opens the link while signed out.
    const memberContext = await browser.newContext();
    const memberPage = await memberContext.newPage();
    const member = newTestUser("member");
    await memberPage.goto(link);
    await expect(memberPage.getByTestId("invitation-summary")).toContainText(teamName);
    await expect(memberPage.getByTestId("invitation-summary")).toContainText("member");
    await expect(memberPage.getByRole("link", { name: "I have an account" })).toHaveAttribute("href", /\/sign-in\?callbackUrl=%2Finvite%2F/);
    await memberPage.getByRole("link", { name: "Create an account" }).click();
    await expect(memberPage).toHaveURL(/\/sign-up\?invite=/);
    await memberPage.getByLabel("Your name").fill(member.name);
    await memberPage.getByLabel("Email").fill(member.email);
    await memberPage.getByLabel("Password", { exact: true }).fill(member.password);
    await memberPage.getByRole("button", { name: "Create account" }).click();
    await expect(memberPage.getByTestId("team-name")).toHaveText(teamName, { timeout: 30_000 });

    // The link was single use.
    const thirdContext = await browser.newContext();
    const thirdPage = await thirdContext.newPage();
    await thirdPage.goto(link);
    await expect(thirdPage.getByTestId("invitation-used")).toBeVisible();
    await thirdContext.close();

    // The owner: the sandbox in one click (demo account), then "Test connection".
    await page.goto("/settings/credentials");
    await page.getByRole("button", { name: "Use the sandbox" }).click();
    await expect(page.getByTestId("sandbox-quick-start-success")).toContainText(/sees \d+ webhook groups/);
    await expect(page.getByTestId("credential-key-last4")).toContainText("_key");
    await page.getByRole("button", { name: "Test connection" }).click();
    await expect(page.getByTestId("webhook-group-count")).toHaveText(/^\d+$/);
    const ownerGroups = await page.getByTestId("webhook-group-count").innerText();

    // The member: their own credentials, typed in; a mistake first, corrected without retyping the rest.
    await memberPage.getByRole("link", { name: "Settings" }).first().click();
    await expect(memberPage.getByRole("heading", { level: 1, name: "API credentials" })).toBeVisible();
    await memberPage.getByLabel("Base URL").fill("http://ems.example.com");
    await memberPage.getByLabel("Consumer key").fill(OTHER_KEY);
    await memberPage.getByLabel("Consumer secret").fill(OTHER_SECRET);
    await memberPage.getByRole("button", { name: "Save credentials" }).click();
    const baseUrl = memberPage.getByLabel("Base URL");
    await expect(baseUrl).toHaveAttribute("aria-invalid", "true");
    await expect(memberPage.locator("#credential-base-url-error")).toContainText("must use HTTPS");
    await expect(baseUrl).toHaveAttribute("aria-describedby", /credential-base-url-error/);
    await expect(memberPage.getByLabel("Consumer key")).toHaveValue(OTHER_KEY);
    await memberPage.getByRole("button", { name: /Use the built-in sandbox URL/ }).click();
    await expect(baseUrl).toHaveValue(/\/sandbox$/);
    await memberPage.getByRole("button", { name: "Save credentials" }).click();
    // Saving asked the EMS first: connected, with what the account sees.
    await expect(memberPage.getByTestId("credential-form-success")).toContainText(/Connected and saved \(key ending in _key\)\. The account sees \d+ webhook groups?\./);
    await expect(memberPage.getByTestId("credential-key-last4")).toContainText("_key");
    await expect(memberPage.getByTestId("credential-status-badge")).toHaveText("Connected");
    await memberPage.getByRole("button", { name: "Test connection" }).click();
    await expect(memberPage.getByTestId("webhook-group-count")).toHaveText(/^\d+$/);
    expect(await memberPage.getByTestId("webhook-group-count").innerText()).not.toBe(ownerGroups);
    // The test's outcome replaces the save's: one message on screen, not a stack of them.
    await expect(memberPage.getByTestId("test-connection-success")).toBeVisible();
    await expect(memberPage.getByTestId("credential-form-success")).toHaveCount(0);
    await memberPage.reload();
    await expect(memberPage.getByTestId("credential-status")).toContainText(/Connected\s*checked/);

    // A member manages nobody and cannot read the audit log.
    await memberPage.goto("/team");
    await expect(memberPage.getByRole("button", { name: /Remove/ })).toHaveCount(0);
    await expect(memberPage.getByTestId("invite-form")).toHaveCount(0);
    await memberPage.goto("/audit");
    await expect(memberPage.getByTestId("audit-forbidden")).toBeVisible();
    await memberPage.goto("/settings/credentials");

    // The owner removes the member.
    await page.goto("/team");
    const row = page.getByTestId("member-row").filter({ hasText: member.email });
    await expect(row.getByTestId("member-role")).toHaveText("Member");
    await row.getByRole("button", { name: "Remove…" }).click();
    await page.getByTestId("confirm-dialog").getByRole("button", { name: "Yes, remove" }).click();
    await expect(page.getByTestId("member-row").filter({ hasText: member.email })).toHaveCount(0);

    // The member's very next click lands on the sign-in page.
    await memberPage.getByRole("link", { name: "Team" }).first().click();
    await expect(memberPage).toHaveURL(/\/sign-in/);
    await memberContext.close();

    // The audit log tells the story, without a secret.
    await page.goto("/audit");
    const table = page.getByTestId("audit-table");
    for (const action of ["invitation.created", "team.joined", "credential.saved", "credential.tested", "team.member_removed"]) {
      await expect(table.locator(`[data-action="${action}"]`).first()).toBeVisible();
    }
    await expect(table).not.toContainText(OTHER_SECRET);
    await expect(table).not.toContainText(OTHER_KEY);
  });

  test("an admin cannot touch an owner, even with a crafted submission; a member cannot delete another's credentials; the last owner cannot leave", async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const owner = newTestUser("boss");
    await signUp(page, owner);
    await page.goto("/team");
    await expect(page.getByTestId("last-owner-note")).toBeVisible();
    const adminLink = await createInvitationLink(page, "Admin");
    const memberLink = await createInvitationLink(page, "Member");

    const adminContext = await browser.newContext();
    const adminPage = await adminContext.newPage();
    const admin = newTestUser("admin");
    await signUp(adminPage, admin, { invite: adminLink.split("/invite/")[1] });
    const memberContext = await browser.newContext();
    const memberPage = await memberContext.newPage();
    const member = newTestUser("crafty");
    await signUp(memberPage, member, { invite: memberLink.split("/invite/")[1] });

    await adminPage.goto("/team");
    const ownerRow = adminPage.getByTestId("member-row").filter({ hasText: owner.email });
    await expect(ownerRow).toContainText("Only an owner can change an owner.");
    await expect(ownerRow.getByRole("button")).toHaveCount(0);
    // Admins invite, but not as owner.
    await expect(adminPage.getByLabel("Role", { exact: true }).locator("option")).toHaveText(["Admin", "Member"]);

    // Crafted: the admin's remove form for the member, pointed at the owner's membership id.
    const ownerMembershipId = await ownerRow.getAttribute("data-membership-id");
    const memberRow = adminPage.getByTestId("member-row").filter({ hasText: member.email });
    await memberRow.getByRole("button", { name: "Remove…" }).click();
    await memberRow
      .locator('form[aria-label^="Remove"] input[name="membershipId"]')
      .evaluate((input, id) => ((input as HTMLInputElement).value = id!), ownerMembershipId);
    await adminPage.getByTestId("confirm-dialog").getByRole("button", { name: "Yes, remove" }).click();
    await expect(memberRow.getByTestId(/^remove-.*-error$/)).toContainText("Admins cannot remove an owner.");
    // Same for a role change.
    await memberRow
      .locator('form[aria-label^="Change"] input[name="membershipId"]')
      .evaluate((input, id) => ((input as HTMLInputElement).value = id!), ownerMembershipId);
    await memberRow.getByLabel(`Role for ${member.name}`).selectOption("MEMBER");
    await memberRow.getByRole("button", { name: "Save role" }).click();
    await expect(memberRow.getByTestId(/^role-.*-error$/)).toContainText("Admins cannot change an owner's role.");
    await page.goto("/team");
    await expect(page.getByTestId("member-row").filter({ hasText: owner.email }).getByTestId("member-role")).toHaveText("Owner");

    // Crafted: the member's own delete form, pointed at the owner's saved credentials.
    await page.goto("/settings/credentials");
    await page.getByRole("button", { name: "Use the sandbox" }).click();
    await expect(page.getByTestId("sandbox-quick-start-success")).toBeVisible();
    await page.reload();
    const ownersCredentialId = await page.locator('form[aria-label="Delete API credentials"] input[name="credentialId"]').inputValue();
    await memberPage.goto("/settings/credentials");
    await memberPage.getByRole("button", { name: "Use the sandbox" }).click();
    await expect(memberPage.getByTestId("sandbox-quick-start-success")).toBeVisible();
    await memberPage.reload();
    await memberPage.getByRole("button", { name: "Delete credentials…" }).click();
    await memberPage
      .locator('form[aria-label="Delete API credentials"] input[name="credentialId"]')
      .evaluate((input, id) => ((input as HTMLInputElement).value = id), ownersCredentialId);
    await memberPage.getByRole("button", { name: "Yes, delete them" }).click();
    await expect(memberPage.getByTestId("delete-credential-error")).toContainText("not yours");
    await page.reload();
    await expect(page.getByTestId("credential-summary")).toBeVisible();

    // The last owner cannot be demoted by anyone: only owners may touch owners, and the owner's own row has no controls.
    await expect(page.getByTestId("member-row").filter({ hasText: owner.email }).getByRole("button")).toHaveCount(0);
    await adminContext.close();
    await memberContext.close();
  });

  test("someone already signed in, alone in a team of their own, joins by the link; an expired or unknown link says so", async ({ page, browser }) => {
    const owner = newTestUser("host");
    await signUp(page, owner);
    const link = await createInvitationLink(page, "Member");

    const guestContext = await browser.newContext();
    const guestPage = await guestContext.newPage();
    const guest = newTestUser("guest");
    await signUp(guestPage, guest);
    await guestPage.goto(link);
    await expect(guestPage.getByTestId("invitation-summary")).toContainText(`${owner.name}'s team`);
    await guestPage.getByRole("button", { name: `Join ${owner.name}'s team` }).click();
    // Joined: the page says which team, and the one next step, their own credentials.
    await expect(guestPage.getByRole("heading", { name: `You joined ${owner.name}'s team` })).toBeVisible({ timeout: 30_000 });
    await expect(guestPage.getByTestId("welcome-save-credentials")).toHaveAttribute("href", "/settings/credentials");
    await shoot(guestPage, "joined", false);
    // Their checklist is their own: nothing of the owner's counts, and a member has no invitation step.
    await guestPage.goto("/webhook-groups");
    await expect(guestPage.getByTestId("first-run-progress")).toHaveText("· 0 of 3 done");
    await expect(guestPage.getByTestId("first-run-step-invite")).toHaveCount(0);
    await guestPage.goto("/team");
    await expect(guestPage.getByTestId("team-name")).toHaveText(`${owner.name}'s team`);
    // Opening the used link again, now as a member.
    await guestPage.goto(link);
    await expect(guestPage.getByTestId("invitation-used")).toBeVisible();
    await guestPage.goto(`/invite/${"x".repeat(43)}`);
    await expect(guestPage.getByTestId("invitation-invalid")).toBeVisible();
    await guestContext.close();

    await page.goto("/team");
    await expect(page.getByTestId("member-row").filter({ hasText: guest.email }).getByTestId("member-role")).toHaveText("Member");
  });

  test("settings, team, audit and invitation pages have no serious or critical axe violations, and work from the keyboard", async ({ page, browser }) => {
    test.setTimeout(120_000);
    const owner = newTestUser("axe-owner");
    await signUp(page, owner);
    await page.goto("/settings/credentials");
    await expectNoSeriousViolations(page);
    // Keyboard only: the sandbox button is reachable with Tab and works with Enter.
    const sandboxButton = page.getByRole("button", { name: "Use the sandbox" });
    await page.getByLabel("Second demo account").focus();
    await page.keyboard.press("Tab");
    await expect(sandboxButton).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("sandbox-quick-start-success")).toBeVisible({ timeout: 30_000 });
    await expectNoSeriousViolations(page);
    const link = await createInvitationLink(page);
    await expectNoSeriousViolations(page);
    await page.goto("/audit");
    await expectNoSeriousViolations(page);
    const visitor = await browser.newContext();
    const visitorPage = await visitor.newPage();
    await visitorPage.goto(link);
    await expectNoSeriousViolations(visitorPage);
    await visitor.close();
  });
});
