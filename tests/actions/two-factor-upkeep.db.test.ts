// Two-factor's upkeep actions, called as a crafted direct request would call them: cancelling an
// enrolment not yet confirmed, and new recovery codes. Signed out, with another person's ids in the
// fields, with bad input, with a stale session, and as intended.
import { describe, expect, it, vi } from "vitest";
vi.mock("next/headers", () => import("./support/next-headers"));
vi.mock("next/cache", () => import("./support/next-cache"));

import { revalidatePath } from "next/cache";
import { cancelTwoFactorEnrolmentAction } from "@/lib/actions/two-factor/cancel-enrolment";
import { regenerateRecoveryCodesAction } from "@/lib/actions/two-factor/regenerate-recovery-codes";
import { REAUTH_PASSWORD_MESSAGE } from "@/lib/access/reauth-shared";
import type { Actor } from "@/lib/access/actor";
import { totpCodeAt, totpStep } from "@/lib/auth/totp";
import { WRONG_CODE_MESSAGE, confirmEnrolment, pendingEnrolment, startEnrolment } from "@/lib/auth/two-factor";
import { prisma } from "@/lib/db/prisma";
import { addMember, createTeam } from "@/tests/teams/fixtures";
import { call, expectSignInRedirect } from "./support/call";
import { signedOutBeforeEach, signInAs } from "./support/request";

const ELEVEN_MINUTES = 11 * 60 * 1000;
const PASSWORD_REFUSED = { status: "error", message: REAUTH_PASSWORD_MESSAGE, reauthRequired: "password" };

/** Signs `who` in; the session last proved itself `ageMs` ago, and its password `passwordAgeMs` ago. */
async function signedInSince(who: Pick<Actor, "userId">, ageMs: number, passwordAgeMs = ageMs): Promise<void> {
  const { sessionId } = await signInAs(who, { path: "/account" });
  const at = (age: number) => new Date(Date.now() - age);
  await prisma.userSession.update({ where: { id: sessionId }, data: { reauthenticatedAt: at(ageMs), passwordVerifiedAt: at(passwordAgeMs) } });
}

/**
 * Two-factor on since yesterday, as if enrolled with the previous step's code (the current one
 * confirms, then the guard is set back: the previous step's code is refused when the clock crosses
 * a step boundary during the call); returns the secret.
 */
async function withTwoFactor(actor: Actor): Promise<string> {
  await startEnrolment(actor, { ip: "203.0.113.7" });
  const { secret } = (await pendingEnrolment(actor))!;
  const step = totpStep();
  await confirmEnrolment(actor, totpCodeAt(secret, step), { ip: "203.0.113.7" });
  await prisma.twoFactor.update({
    where: { userId: actor.userId },
    data: { enabledAt: new Date(Date.now() - 24 * 60 * 60 * 1000), lastUsedStep: step - 1 },
  });
  return secret;
}

const codeHashesOf = (who: Pick<Actor, "userId">) =>
  prisma.recoveryCode.findMany({ where: { userId: who.userId }, select: { codeHash: true }, orderBy: { codeHash: "asc" } });

signedOutBeforeEach("/account");

describe("cancelTwoFactorEnrolmentAction", () => {
  it("sends a signed-out caller to sign-in and cancels nothing", async () => {
    const owner = await createTeam();
    await startEnrolment(owner, { ip: "203.0.113.7" });
    await expectSignInRedirect(call(cancelTwoFactorEnrolmentAction), "/account");
    expect(await prisma.twoFactor.count({ where: { userId: owner.userId, enabledAt: null } })).toBe(1);
  });

  it("cancels the caller's own pending enrolment only: a teammate's or another team's person's named in the fields stays", async () => {
    const owner = await createTeam();
    const teammate = await addMember(owner, "MEMBER");
    const stranger = await createTeam();
    for (const person of [owner, teammate, stranger]) await startEnrolment(person, { ip: "203.0.113.7" });

    await signedInSince(owner, 0);
    expect(await call(cancelTwoFactorEnrolmentAction, { userId: teammate.userId, id: stranger.userId })).toEqual({ status: "success" });
    expect(await prisma.twoFactor.count({ where: { userId: owner.userId } })).toBe(0);
    expect(await prisma.twoFactor.count({ where: { userId: { in: [teammate.userId, stranger.userId] }, enabledAt: null } })).toBe(2);
    expect(revalidatePath).toHaveBeenCalledWith("/account");
    expect(revalidatePath).toHaveBeenCalledWith("/two-factor/setup");
  });

  it("never turns off two-factor that is on: only an enrolment not yet confirmed is cancelled", async () => {
    const owner = await createTeam();
    await withTwoFactor(owner);
    await signedInSince(owner, ELEVEN_MINUTES);
    expect(await call(cancelTwoFactorEnrolmentAction)).toEqual({ status: "success" });
    expect((await prisma.twoFactor.findUniqueOrThrow({ where: { userId: owner.userId } })).enabledAt).not.toBeNull();
  });

  it("is open to a member whose team requires two-factor and who has not enrolled yet (enrolment's own action)", async () => {
    const owner = await createTeam();
    await prisma.team.update({ where: { id: owner.teamId }, data: { requireTwoFactor: true } });
    const member = await addMember(owner, "MEMBER");
    await startEnrolment(member, { ip: "203.0.113.7" });
    await signedInSince(member, 0);
    expect(await call(cancelTwoFactorEnrolmentAction)).toEqual({ status: "success" });
    expect(await prisma.twoFactor.count({ where: { userId: member.userId } })).toBe(0);
  });
});

describe("regenerateRecoveryCodesAction", () => {
  it("sends a signed-out caller to sign-in and leaves the codes as they were", async () => {
    const owner = await createTeam();
    const secret = await withTwoFactor(owner);
    const before = await codeHashesOf(owner);
    await expectSignInRedirect(call(regenerateRecoveryCodesAction, { code: totpCodeAt(secret, totpStep()) }), "/account");
    expect(await codeHashesOf(owner)).toEqual(before);
  });

  it("asks a session whose password is 11 minutes old for the password, even with a recent code, before reading the input", async () => {
    const owner = await createTeam();
    const secret = await withTwoFactor(owner);
    const before = await codeHashesOf(owner);
    await signedInSince(owner, 0, ELEVEN_MINUTES);
    expect(await call(regenerateRecoveryCodesAction, { code: totpCodeAt(secret, totpStep()) })).toEqual(PASSWORD_REFUSED);
    expect(await call(regenerateRecoveryCodesAction, { code: "" })).toEqual(PASSWORD_REFUSED);
    expect(await codeHashesOf(owner)).toEqual(before);
  });

  it("answers bad input and a wrong code on the code field, and changes nothing", async () => {
    const owner = await createTeam();
    await withTwoFactor(owner);
    const before = await codeHashesOf(owner);
    await signedInSince(owner, 0);
    expect(await call(regenerateRecoveryCodesAction, { code: "   " })).toEqual({ status: "error", fieldErrors: { code: "Enter the code from your app." } });
    expect(await call(regenerateRecoveryCodesAction, { code: "x".repeat(65) })).toMatchObject({ status: "error", fieldErrors: { code: expect.any(String) } });
    expect(await call(regenerateRecoveryCodesAction, { code: "000000" })).toEqual({ status: "error", fieldErrors: { code: WRONG_CODE_MESSAGE } });
    expect(await codeHashesOf(owner)).toEqual(before);
  });

  it("takes only a code of the caller's own factor: a teammate's current code, or their id in the fields, does nothing for them", async () => {
    const owner = await createTeam();
    const teammate = await addMember(owner, "ADMIN");
    await withTwoFactor(owner);
    const teammateSecret = await withTwoFactor(teammate);
    const ownerBefore = await codeHashesOf(owner);
    const teammateBefore = await codeHashesOf(teammate);
    await signedInSince(owner, 0);
    expect(await call(regenerateRecoveryCodesAction, { code: totpCodeAt(teammateSecret, totpStep()), userId: teammate.userId })).toEqual({
      status: "error",
      fieldErrors: { code: WRONG_CODE_MESSAGE },
    });
    expect(await codeHashesOf(owner)).toEqual(ownerBefore);
    expect(await codeHashesOf(teammate)).toEqual(teammateBefore);
  });

  it("with a recent password and a current code: ten new codes, shown once; the old ones no longer work; recorded", async () => {
    const owner = await createTeam();
    const secret = await withTwoFactor(owner);
    const before = await codeHashesOf(owner);
    await signedInSince(owner, 0);
    const answer = await call(regenerateRecoveryCodesAction, { code: totpCodeAt(secret, totpStep()) });
    expect(answer).toMatchObject({ status: "success", message: "New recovery codes made; the old ones no longer work." });
    const codes = answer.status === "success" ? answer.data!.recoveryCodes : [];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const after = await codeHashesOf(owner);
    expect(after).toHaveLength(10);
    expect(after.some((row) => before.some((old) => old.codeHash === row.codeHash))).toBe(false);
    // Only hashes are kept.
    expect(JSON.stringify(after)).not.toContain(codes[0]);
    expect(await prisma.auditLog.count({ where: { actorId: owner.userId, action: "auth.recovery_codes_regenerated" } })).toBe(1);
  });
});
