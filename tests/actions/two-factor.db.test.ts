// Recent re-authentication and the team's two-factor requirement, inside the actions themselves
// (lib/actions/pipeline.ts): each action called as a crafted direct request would call it, with a
// real session cookie whose session row is older than the window, with another team's ids, and
// by a member the team requires to enrol.
import { beforeEach, describe, expect, it, vi } from "vitest";
vi.mock("next/headers", () => import("./support/next-headers"));
vi.mock("next/cache", () => import("./support/next-cache"));

import { prisma } from "@/lib/db/prisma";
import { endSessionAction } from "@/lib/actions/auth/end-session";
import { reauthenticateAction } from "@/lib/actions/auth/reauthenticate";
import { signOutOtherSessionsAction } from "@/lib/actions/auth/sign-out-other-sessions";
import { deleteCredentialsAction } from "@/lib/actions/credentials/delete-credentials";
import { saveCredentialsAction } from "@/lib/actions/credentials/save-credentials";
import { changeMemberRoleAction } from "@/lib/actions/team/change-member-role";
import { removeMemberAction } from "@/lib/actions/team/remove-member";
import { requireTwoFactorAction } from "@/lib/actions/team/require-two-factor";
import { saveViewAction } from "@/lib/actions/views/save-view";
import { confirmTwoFactorEnrolmentAction } from "@/lib/actions/two-factor/confirm-enrolment";
import { disableTwoFactorAction } from "@/lib/actions/two-factor/disable";
import { regenerateRecoveryCodesAction } from "@/lib/actions/two-factor/regenerate-recovery-codes";
import { startTwoFactorEnrolmentAction } from "@/lib/actions/two-factor/start-enrolment";
import { hashPassword } from "@/lib/auth/password";
import { REAUTH_PASSWORD_MESSAGE, REAUTH_REQUIRED_MESSAGE } from "@/lib/access/reauth-shared";
import { TWO_FACTOR_SETUP_PATH, type Actor } from "@/lib/access/actor";
import { totpCodeAt, totpStep } from "@/lib/auth/totp";
import { confirmEnrolment, pendingEnrolment, startEnrolment } from "@/lib/auth/two-factor";
import { addMember, createTeam, membershipIdOf } from "@/tests/teams/fixtures";
import { call, redirectOf } from "./support/call";
import { signInAs, signedOut } from "./support/request";

const PASSWORD = "the right password for re-authentication";
const ELEVEN_MINUTES = 11 * 60 * 1000;
const REFUSED = { status: "error", message: REAUTH_REQUIRED_MESSAGE, reauthRequired: "any" };
const PASSWORD_REFUSED = { status: "error", message: REAUTH_PASSWORD_MESSAGE, reauthRequired: "password" };

/**
 * Signs `actor` in with a session that last proved itself `ageMs` ago (a code or the password), and
 * its password `passwordAgeMs` ago (by default when it last proved itself).
 */
async function signedInSince(actor: Pick<Actor, "userId">, ageMs: number, path = "/", passwordAgeMs = ageMs): Promise<string> {
  const { sessionId } = await signInAs(actor, { path });
  const at = (age: number) => new Date(Date.now() - age);
  await prisma.userSession.update({ where: { id: sessionId }, data: { reauthenticatedAt: at(ageMs), passwordVerifiedAt: at(passwordAgeMs) } });
  return sessionId;
}

async function withPassword<T extends Pick<Actor, "userId">>(actor: T): Promise<T> {
  await prisma.user.update({ where: { id: actor.userId }, data: { passwordHash: await hashPassword(PASSWORD) } });
  return actor;
}

/** Two-factor on since yesterday; returns the secret. */
async function withTwoFactor(actor: Actor): Promise<string> {
  await startEnrolment(actor, { ip: "203.0.113.7" });
  const { secret } = (await pendingEnrolment(actor))!;
  // The current step's code: the previous step's is refused when the clock crosses a step boundary
  // during the call (a slow machine did). The steps are then forgotten, so the tests' own codes are new.
  await confirmEnrolment(actor, totpCodeAt(secret, totpStep()), { ip: "203.0.113.7" });
  // Enrolled before the sessions the tests open (enrolling ends every other session anyway).
  await prisma.twoFactor.update({
    where: { userId: actor.userId },
    data: { enabledAt: new Date(Date.now() - 24 * 60 * 60 * 1000), lastUsedStep: totpStep() - 5 },
  });
  return secret;
}

async function fakeCredential(actor: Pick<Actor, "userId">) {
  return prisma.apiCredential.create({
    data: {
      userId: actor.userId,
      baseUrl: "https://ems.example.com",
      keyCiphertext: "v1:x:x:x",
      secretCiphertext: "v1:x:x:x",
      keyLast4: "1234",
      fingerprint: "f".repeat(64),
    },
  });
}

beforeEach(() => signedOut());

describe("recent re-authentication, inside each sensitive action", () => {
  it("refuses every sensitive action of a session last authenticated 11 minutes ago, and changes nothing", async () => {
    const owner = await withPassword(await createTeam());
    const member = await addMember(owner, "MEMBER");
    const credential = await fakeCredential(owner);
    await signedInSince(owner, ELEVEN_MINUTES, "/team");

    expect(await call(changeMemberRoleAction, { membershipId: await membershipIdOf(member), role: "ADMIN" })).toEqual(REFUSED);
    expect(await call(removeMemberAction, { membershipId: await membershipIdOf(member) })).toEqual(REFUSED);
    expect(await call(deleteCredentialsAction, { credentialId: credential.id })).toEqual(REFUSED);
    expect(await call(saveCredentialsAction, { baseUrl: "https://ems.example.com", consumerKey: "k", consumerSecret: "s" })).toEqual(REFUSED);
    expect(await call(requireTwoFactorAction, { required: "true" })).toEqual(REFUSED);
    // Refused before the input is read: even nonsense gets the same answer, not field errors.
    expect(await call(removeMemberAction, {})).toEqual(REFUSED);

    expect((await prisma.membership.findUniqueOrThrow({ where: { userId: member.userId } })).role).toBe("MEMBER");
    expect(await prisma.apiCredential.count({ where: { id: credential.id } })).toBe(1);
    expect((await prisma.team.findUniqueOrThrow({ where: { id: owner.teamId } })).requireTwoFactor).toBe(false);
  });

  it("lets the same session act after it re-authenticates with the password; a wrong one is refused and recorded", async () => {
    const owner = await withPassword(await createTeam());
    const member = await addMember(owner, "MEMBER");
    const sessionId = await signedInSince(owner, ELEVEN_MINUTES, "/team");

    expect(await call(reauthenticateAction, { password: "not the password" })).toEqual({ status: "error", fieldErrors: { password: "That is not your password." } });
    expect(await call(changeMemberRoleAction, { membershipId: await membershipIdOf(member), role: "ADMIN" })).toEqual(REFUSED);

    expect(await call(reauthenticateAction, { password: PASSWORD })).toEqual({ status: "success", message: "Confirmed." });
    const session = await prisma.userSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(Date.now() - session.reauthenticatedAt.getTime()).toBeLessThan(60_000);
    expect(await call(changeMemberRoleAction, { membershipId: await membershipIdOf(member), role: "ADMIN" })).toMatchObject({ status: "success" });
    expect((await prisma.membership.findUniqueOrThrow({ where: { userId: member.userId } })).role).toBe("ADMIN");

    const actions = (await prisma.auditLog.findMany({ where: { actorId: owner.userId, action: { startsWith: "auth.reauth" } } })).map((r) => r.action);
    expect(actions.sort()).toEqual(["auth.reauthenticated", "auth.reauthentication_failed"]);
  });

  it("is per session: re-authenticating one browser does not make another recent", async () => {
    const owner = await withPassword(await createTeam());
    const member = await addMember(owner, "MEMBER");
    await signedInSince(owner, ELEVEN_MINUTES, "/team");
    expect(await call(reauthenticateAction, { password: PASSWORD })).toMatchObject({ status: "success" });
    await signedInSince(owner, ELEVEN_MINUTES, "/team");
    expect(await call(removeMemberAction, { membershipId: await membershipIdOf(member) })).toEqual(REFUSED);
  });

  it("asks a two-factor person for a code, not the password, and a code works once", async () => {
    const owner = await withPassword(await createTeam());
    const secret = await withTwoFactor(owner);
    const member = await addMember(owner, "MEMBER");
    await signedInSince(owner, ELEVEN_MINUTES, "/team");

    expect(await call(reauthenticateAction, { password: PASSWORD })).toMatchObject({ status: "error", fieldErrors: { code: expect.stringMatching(/not right/) } });
    const code = totpCodeAt(secret, totpStep());
    expect(await call(reauthenticateAction, { code })).toMatchObject({ status: "success" });
    await signedInSince(owner, ELEVEN_MINUTES, "/team");
    expect(await call(reauthenticateAction, { code })).toMatchObject({ status: "error", fieldErrors: { code: expect.stringMatching(/used already/) } });
    expect(await call(removeMemberAction, { membershipId: await membershipIdOf(member) })).toEqual(REFUSED);
  });

  it("turns two-factor off only recently authenticated and with a current code", async () => {
    const owner = await withPassword(await createTeam());
    const secret = await withTwoFactor(owner);
    await signedInSince(owner, ELEVEN_MINUTES, "/account");
    expect(await call(disableTwoFactorAction, { code: totpCodeAt(secret, totpStep()) })).toEqual(PASSWORD_REFUSED);
    // A code a minute ago is not enough either: turning it off changes who controls the account.
    await signedInSince(owner, 60_000, "/account", ELEVEN_MINUTES);
    expect(await call(disableTwoFactorAction, { code: totpCodeAt(secret, totpStep()) })).toEqual(PASSWORD_REFUSED);
    expect(await prisma.twoFactor.count({ where: { userId: owner.userId } })).toBe(1);

    await signedInSince(owner, 0, "/account");
    expect(await call(disableTwoFactorAction, { code: "not a code" })).toMatchObject({ status: "error", fieldErrors: { code: expect.stringMatching(/not right/) } });
    expect(await call(disableTwoFactorAction, { code: totpCodeAt(secret, totpStep()) })).toMatchObject({ status: "success" });
    expect(await prisma.twoFactor.count({ where: { userId: owner.userId } })).toBe(0);
    expect(await prisma.recoveryCode.count({ where: { userId: owner.userId } })).toBe(0);
    expect(await prisma.auditLog.count({ where: { actorId: owner.userId, action: "auth.two_factor_disabled" } })).toBe(1);
  });

  it("gives a freshly authenticated session no way into another team's members or someone else's credentials", async () => {
    const owner = await withPassword(await createTeam());
    const stranger = await createTeam();
    const theirMember = await addMember(stranger, "MEMBER");
    const theirCredential = await fakeCredential(stranger);
    await signedInSince(owner, 0, "/team");
    expect(await call(removeMemberAction, { membershipId: await membershipIdOf(theirMember) })).toMatchObject({ status: "error" });
    expect(await call(changeMemberRoleAction, { membershipId: await membershipIdOf(theirMember), role: "OWNER" })).toMatchObject({ status: "error" });
    expect(await call(deleteCredentialsAction, { credentialId: theirCredential.id })).toMatchObject({ status: "error" });
    expect(await prisma.membership.count({ where: { userId: theirMember.userId, role: "MEMBER" } })).toBe(1);
    expect(await prisma.apiCredential.count({ where: { id: theirCredential.id } })).toBe(1);
  });
});

describe("a team that requires two-factor", () => {
  it("is set by an owner with two-factor only, not by an admin, and not by an owner without it", async () => {
    const owner = await withPassword(await createTeam());
    const admin = await addMember(owner, "ADMIN");
    await signedInSince(admin, 0, "/team");
    expect(await call(requireTwoFactorAction, { required: "true" })).toEqual({ status: "error", message: "Only owners can require two-factor sign-in." });
    await signedInSince(owner, 0, "/team");
    expect(await call(requireTwoFactorAction, { required: "true" })).toMatchObject({ status: "error", message: expect.stringMatching(/for yourself first/) });
    await withTwoFactor(owner);
    // Turning two-factor on ended the owner's other sessions: a new sign-in (with the code).
    await signedInSince(owner, 0, "/team");
    expect(await call(requireTwoFactorAction, { required: "true" })).toMatchObject({ status: "success" });
    expect((await prisma.team.findUniqueOrThrow({ where: { id: owner.teamId } })).requireTwoFactor).toBe(true);
    expect(await prisma.auditLog.count({ where: { teamId: owner.teamId, action: "team.two_factor_requirement_changed" } })).toBe(1);
  });

  it("sends a member without two-factor to enrol from every other action, lets them enrol, and then lets them through", async () => {
    const owner = await withPassword(await createTeam());
    await withTwoFactor(owner);
    await prisma.team.update({ where: { id: owner.teamId }, data: { requireTwoFactor: true } });
    const member = await addMember(owner, "MEMBER");
    const outsider = await createTeam();

    await signedInSince(member, 0, "/views");
    expect(await redirectOf(call(saveViewAction, { page: "webhook-groups", name: "Mine", query: "", scope: "PERSONAL" }))).toBe(TWO_FACTOR_SETUP_PATH);
    expect(await redirectOf(call(saveCredentialsAction, { baseUrl: "https://ems.example.com", consumerKey: "k", consumerSecret: "s" }))).toBe(TWO_FACTOR_SETUP_PATH);
    expect(await prisma.savedView.count({ where: { ownerId: member.userId } })).toBe(0);
    // Confirming it's them is open: the enrolment page asks for the password before it shows a secret.
    expect(await call(reauthenticateAction, { password: "not their password" })).toEqual({ status: "error", fieldErrors: { password: "That is not your password." } });

    // Enrolment's own actions are open to them.
    expect(await call(startTwoFactorEnrolmentAction)).toEqual({ status: "success" });
    const { secret } = (await pendingEnrolment(member))!;
    const confirmed = await call(confirmTwoFactorEnrolmentAction, { code: totpCodeAt(secret, totpStep()) });
    expect(confirmed).toMatchObject({ status: "success", data: { recoveryCodes: expect.arrayContaining([expect.stringMatching(/^\w{4}-/)]) } });
    // Saved (and off to the saved view's page, not to enrolment).
    expect(await redirectOf(call(saveViewAction, { page: "webhook-groups", name: "Mine", query: "", scope: "PERSONAL" }))).not.toBe(TWO_FACTOR_SETUP_PATH);
    expect(await prisma.savedView.count({ where: { ownerId: member.userId } })).toBe(1);

    // Another team is not concerned.
    await signedInSince(outsider, 0, "/views");
    expect(await redirectOf(call(saveViewAction, { page: "webhook-groups", name: "Theirs", query: "", scope: "PERSONAL" }))).not.toBe(TWO_FACTOR_SETUP_PATH);
  });

  it("keeps two-factor on for a member of such a team: turning it off is refused", async () => {
    const owner = await withPassword(await createTeam());
    await withTwoFactor(owner);
    const member = await addMember(owner, "MEMBER");
    const secret = await withTwoFactor(member);
    await prisma.team.update({ where: { id: owner.teamId }, data: { requireTwoFactor: true } });
    await signedInSince(member, 0, "/account");
    expect(await call(disableTwoFactorAction, { code: totpCodeAt(secret, totpStep()) })).toMatchObject({
      status: "error",
      message: expect.stringMatching(/requires two-factor/),
    });
    expect(await prisma.twoFactor.count({ where: { userId: member.userId, enabledAt: { not: null } } })).toBe(1);
  });
});

describe("a stale session cannot make itself the account (issue 24, finding 1)", () => {
  // The cookie of an unlocked laptop: signed in an hour ago, never re-authenticated since.
  const HOUR = 60 * 60 * 1000;

  it("cannot start or confirm an enrolment, nor read a pending secret: each asks for the password and changes nothing", async () => {
    const owner = await withPassword(await createTeam());
    await signedInSince(owner, HOUR, "/account");
    expect(await call(startTwoFactorEnrolmentAction)).toEqual(PASSWORD_REFUSED);
    expect(await prisma.twoFactor.count({ where: { userId: owner.userId } })).toBe(0);

    // An enrolment the owner started earlier (in a fresh session) stays theirs: the stale session
    // can neither see its secret nor confirm it.
    await startEnrolment(owner, { ip: "203.0.113.7" });
    const { secret } = (await pendingEnrolment(owner))!;
    const staleActor = { ...owner, reauthenticatedAt: new Date(Date.now() - HOUR), passwordVerifiedAt: new Date(Date.now() - HOUR) };
    await expect(pendingEnrolment(staleActor)).rejects.toMatchObject({ reauthRequired: "password" });
    expect(await call(confirmTwoFactorEnrolmentAction, { code: totpCodeAt(secret, totpStep()) })).toEqual(PASSWORD_REFUSED);
    await expect(confirmEnrolment({ ...staleActor, twoFactorEnabled: false }, totpCodeAt(secret, totpStep()), { ip: "203.0.113.7" })).rejects.toMatchObject({
      reauthRequired: "password",
    });
    expect((await prisma.twoFactor.findUniqueOrThrow({ where: { userId: owner.userId } })).enabledAt).toBeNull();
  });

  it("does not count a code in place of the password: new recovery codes and ending sessions need the password as well", async () => {
    const owner = await withPassword(await createTeam());
    const secret = await withTwoFactor(owner);
    const laptop = await signInAs(owner);
    // Re-authenticated with a code a minute ago; the password was an hour ago.
    await signedInSince(owner, 60_000, "/account", HOUR);
    const codesBefore = await prisma.recoveryCode.findMany({ where: { userId: owner.userId }, select: { codeHash: true } });
    expect(await call(regenerateRecoveryCodesAction, { code: totpCodeAt(secret, totpStep()) })).toEqual(PASSWORD_REFUSED);
    expect(await call(signOutOtherSessionsAction)).toEqual(PASSWORD_REFUSED);
    expect(await call(endSessionAction, { sessionId: laptop.sessionId })).toEqual(PASSWORD_REFUSED);
    expect(await prisma.recoveryCode.findMany({ where: { userId: owner.userId }, select: { codeHash: true } })).toEqual(codesBefore);
    expect((await prisma.userSession.findUniqueOrThrow({ where: { id: laptop.sessionId } })).revokedAt).toBeNull();

    // With the password and a code, it goes through.
    await forgetUsedSteps(owner.userId);
    expect(await call(reauthenticateAction, { password: PASSWORD, code: totpCodeAt(secret, totpStep()) })).toMatchObject({ status: "success" });
    expect(await call(signOutOtherSessionsAction)).toMatchObject({ status: "success" });
    expect((await prisma.userSession.findUniqueOrThrow({ where: { id: laptop.sessionId } })).revokedAt).not.toBeNull();
    const with_ = (await prisma.auditLog.findFirstOrThrow({ where: { actorId: owner.userId, action: "auth.reauthenticated" }, orderBy: { createdAt: "desc" } })).metadata;
    expect(with_).toEqual({ with: "password+totp" });
  });

  it("refuses a code of a factor enrolled after this session's last password, until the password is given again", async () => {
    // A fresh session (say, a cookie taken right after sign-in) enrols an app; an hour later its
    // codes alone must not confirm anything: otherwise the app's holder keeps the account for good.
    const owner = await withPassword(await createTeam());
    const member = await addMember(owner, "MEMBER");
    const sessionId = await signedInSince(owner, 0, "/account");
    expect(await call(startTwoFactorEnrolmentAction)).toEqual({ status: "success" });
    const { secret } = (await pendingEnrolment(owner))!;
    expect(await call(confirmTwoFactorEnrolmentAction, { code: totpCodeAt(secret, totpStep()) })).toMatchObject({ status: "success" });
    await forgetUsedSteps(owner.userId);
    const hourAgo = new Date(Date.now() - HOUR);
    await prisma.userSession.update({ where: { id: sessionId }, data: { reauthenticatedAt: hourAgo, passwordVerifiedAt: hourAgo } });

    expect(await call(reauthenticateAction, { code: totpCodeAt(secret, totpStep()) })).toMatchObject({ status: "error", reauthRequired: "password" });
    expect(await call(changeMemberRoleAction, { membershipId: await membershipIdOf(member), role: "ADMIN" })).toEqual(REFUSED);
    // The password and the code: confirmed, and from then on a code alone does again.
    expect(await call(reauthenticateAction, { password: PASSWORD, code: totpCodeAt(secret, totpStep()) })).toMatchObject({ status: "success" });
    await prisma.userSession.update({ where: { id: sessionId }, data: { reauthenticatedAt: hourAgo } });
    await forgetUsedSteps(owner.userId);
    expect(await call(reauthenticateAction, { code: totpCodeAt(secret, totpStep()) })).toMatchObject({ status: "success" });
  });

  it("ends the person's other sessions when two-factor goes on, says so, and records it", async () => {
    const owner = await withPassword(await createTeam());
    const laptop = await signInAs(owner);
    const phone = await signInAs(owner);
    await signedInSince(owner, 0, "/account");
    expect(await call(startTwoFactorEnrolmentAction)).toEqual({ status: "success" });
    const { secret } = (await pendingEnrolment(owner))!;
    expect(await call(confirmTwoFactorEnrolmentAction, { code: totpCodeAt(secret, totpStep()) })).toMatchObject({
      status: "success",
      message: "Two-factor sign-in is on. Your 2 other sessions were signed out.",
    });
    for (const { sessionId } of [laptop, phone]) expect((await prisma.userSession.findUniqueOrThrow({ where: { id: sessionId } })).revokedAt).not.toBeNull();
    const actions = (await prisma.auditLog.findMany({ where: { actorId: owner.userId }, orderBy: { createdAt: "asc" } })).map((r) => [r.action, r.metadata]);
    expect(actions).toContainEqual(["auth.two_factor_enrolment_started", null]);
    expect(actions).toContainEqual(["auth.two_factor_enabled", { otherSessionsEnded: 2 }]);
  });
});

function forgetUsedSteps(userId: string) {
  return prisma.twoFactor.update({ where: { userId }, data: { lastUsedStep: totpStep() - 5 } });
}
