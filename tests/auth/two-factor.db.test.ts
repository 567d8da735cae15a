// Two-factor sign-in on the database (lib/auth/two-factor.ts, lib/auth/sign-in.ts): the secret at
// rest, the atomic replay guard under concurrency, recovery codes used once, the challenge between
// password and code, and the code throttle. Runs on the embedded PostgreSQL and on the real one.
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
vi.mock("next/headers", () => import("../actions/support/next-headers"));
import type { CredentialsConfig } from "next-auth/providers/credentials";
import { prisma } from "@/lib/db/prisma";
import { authOptions, challengeCookie } from "@/lib/auth/options";
import { TWO_FACTOR_REQUIRED } from "@/lib/access/reauth-shared";
import { currentRequestHeaders } from "../actions/support/current-request";
import { signedOut } from "../actions/support/request";
import { ciphertextKeyId, decryptSecret, encryptSecret } from "@/lib/crypto";
import { hashPassword } from "@/lib/auth/password";
import { SecondFactorRequired, signInWithPassword, signInWithSecondFactor } from "@/lib/auth/sign-in";
import { totpCodeAt, totpStep } from "@/lib/auth/totp";
import {
  CHALLENGE_MAX_FAILURES,
  acceptTotpCode,
  completeSignInChallenge,
  confirmEnrolment,
  consumeRecoveryCode,
  pendingEnrolment,
  startEnrolment,
  twoFactorAad,
} from "@/lib/auth/two-factor";
import { rotateStoredSecrets } from "@/lib/rotation/credentials";
import type { Actor } from "@/lib/access/actor";
import { warmPool, withOwnDatabase } from "@/tests/setup/db";
import { addMember, createTeam } from "../teams/fixtures";

// Key rotation rewrites every stored secret of the database: on the shared one it would re-encrypt
// the rows of files running beside this one under a key their processes do not hold.
withOwnDatabase();

const PASSWORD = "a long enough password for two-factor tests";
const address = () => `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
const meta = () => ({ ip: address(), userAgent: "vitest" });

/**
 * A person with a password and two-factor on, as if enrolled with the code of the previous step: the
 * current step's code confirms (the previous one is refused when the clock crosses a step boundary
 * during the call, which a loaded machine did), then the guard is set back to the previous step.
 */
async function enrolled(actor?: Actor): Promise<{ actor: Actor; secret: string; recoveryCodes: string[] }> {
  const person = actor ?? (await createTeam());
  await prisma.user.update({ where: { id: person.userId }, data: { passwordHash: await hashPassword(PASSWORD) } });
  await startEnrolment(person, { ip: "203.0.113.7" });
  const { secret } = (await pendingEnrolment(person))!;
  const step = totpStep();
  const { recoveryCodes } = await confirmEnrolment(person, totpCodeAt(secret, step), { ip: address() });
  await prisma.twoFactor.update({ where: { userId: person.userId }, data: { lastUsedStep: step - 1 } });
  return { actor: { ...person, twoFactorEnabled: true }, secret, recoveryCodes };
}

/** "Time passes": the guard forgets the steps used so far, so the current codes are new again. */
const forgetUsedSteps = (userId: string) => prisma.twoFactor.update({ where: { userId }, data: { lastUsedStep: totpStep() - 5 } });

/** The password step: the challenge token a two-factor person's browser gets (and no session). */
async function passwordStep(email: string, ip = address()): Promise<string> {
  try {
    await signInWithPassword({ email, password: PASSWORD }, { ip, userAgent: "vitest" });
  } catch (error) {
    if (error instanceof SecondFactorRequired) return error.challengeToken;
    throw error;
  }
  throw new Error("the password alone signed a two-factor person in");
}

const messageOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "signed in",
    (error: Error) => error.message,
  );

describe("enrolment", () => {
  it("keeps the secret encrypted, bound to its row, and turns two-factor on only with a right code", async () => {
    const owner = await createTeam();
    await startEnrolment(owner, { ip: "203.0.113.7" });
    const row = await prisma.twoFactor.findUniqueOrThrow({ where: { userId: owner.userId } });
    const { secret } = (await pendingEnrolment(owner))!;
    expect(row.enabledAt).toBeNull();
    expect(row.secretCiphertext).toMatch(/^v1:/);
    expect(row.secretCiphertext).not.toContain(secret);
    expect(decryptSecret(row.secretCiphertext, twoFactorAad(owner.userId))).toBe(secret);
    // Copied onto another person's row, the ciphertext does not open.
    const other = await createTeam();
    expect(() => decryptSecret(row.secretCiphertext, twoFactorAad(other.userId))).toThrow(/failed authentication/);

    await expect(confirmEnrolment(owner, "000000" === totpCodeAt(secret, totpStep()) ? "111111" : "000000", { ip: address() })).rejects.toThrow(/not right/);
    expect((await prisma.twoFactor.findUniqueOrThrow({ where: { userId: owner.userId } })).enabledAt).toBeNull();

    const { recoveryCodes: codes } = await confirmEnrolment(owner, totpCodeAt(secret, totpStep()), { ip: address() });
    expect(codes).toHaveLength(10);
    const stored = await prisma.recoveryCode.findMany({ where: { userId: owner.userId } });
    expect(stored).toHaveLength(10);
    for (const code of codes) expect(stored.map((r) => r.codeHash).join()).not.toContain(code.replace(/-/g, ""));
    expect((await prisma.twoFactor.findUniqueOrThrow({ where: { userId: owner.userId } })).enabledAt).not.toBeNull();
    // Enrolling again over an enabled factor is refused, and does not replace the secret.
    await expect(startEnrolment(owner, { ip: "203.0.113.7" })).rejects.toThrow(/already on/);
    expect((await prisma.twoFactor.findUniqueOrThrow({ where: { userId: owner.userId } })).secretCiphertext).toBe(row.secretCiphertext);
    expect(await prisma.auditLog.count({ where: { actorId: owner.userId, action: "auth.two_factor_enabled" } })).toBe(1);
  });

  it("is re-encrypted by key rotation, and still opens on its row", async () => {
    const { actor, secret } = await enrolled();
    const original = process.env.CREDENTIAL_ENCRYPTION_KEYS;
    const kid = `r${randomBytes(4).toString("hex")}`;
    try {
      process.env.CREDENTIAL_ENCRYPTION_KEYS = `${kid}:${randomBytes(32).toString("base64")},${original}`;
      const report = await rotateStoredSecrets(prisma);
      expect(report.twoFactor.unreadable).toEqual([]);
      const row = await prisma.twoFactor.findUniqueOrThrow({ where: { userId: actor.userId } });
      expect(ciphertextKeyId(row.secretCiphertext)).toBe(kid);
      expect(decryptSecret(row.secretCiphertext, twoFactorAad(actor.userId))).toBe(secret);
      expect((await rotateStoredSecrets(prisma)).twoFactor.reencrypted).toBe(0);
    } finally {
      process.env.CREDENTIAL_ENCRYPTION_KEYS = original;
      // Back under a key of the original ring, for the other tests of this file.
      await prisma.twoFactor.update({ where: { userId: actor.userId }, data: { secretCiphertext: encryptSecret(secret, twoFactorAad(actor.userId)) } });
    }
  });
});

describe("a code works once (the replay guard)", () => {
  it("accepts a code once; the same code again, or an older one, is refused", async () => {
    const { actor, secret } = await enrolled();
    const code = totpCodeAt(secret, totpStep());
    expect(await acceptTotpCode(actor.userId, code, { enabled: true })).toBe(true);
    expect(await acceptTotpCode(actor.userId, code, { enabled: true })).toBe(false);
    // The enrolment used the previous step: older than the last used, refused.
    expect(await acceptTotpCode(actor.userId, totpCodeAt(secret, totpStep() - 1), { enabled: true })).toBe(false);
    expect(await acceptTotpCode(actor.userId, totpCodeAt(secret, totpStep() + 1), { enabled: true })).toBe(true);
  });

  it("accepts one of 20 simultaneous requests with the same code, on a pool of several connections", async () => {
    const { actor, secret } = await enrolled();
    const code = totpCodeAt(secret, totpStep());
    await warmPool(5);
    const results = await Promise.all(Array.from({ length: 20 }, () => acceptTotpCode(actor.userId, code, { enabled: true })));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("opens one session of 10 simultaneous completions of one challenge with the same code", async () => {
    const { actor, secret } = await enrolled();
    const token = await passwordStep(actor.email);
    const code = totpCodeAt(secret, totpStep());
    await warmPool(5);
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => messageOf(signInWithSecondFactor(token, code, meta()))));
    expect(outcomes.filter((outcome) => outcome === "signed in")).toHaveLength(1);
    expect(await prisma.userSession.count({ where: { userId: actor.userId } })).toBe(1);
  });
});

describe("recovery codes", () => {
  it("work once each, whatever the spelling; of 10 simultaneous uses of one code, one succeeds", async () => {
    const { actor, recoveryCodes } = await enrolled();
    const [first, second] = recoveryCodes;
    expect(await consumeRecoveryCode(actor.userId, first!.toUpperCase())).toBe(true);
    expect(await consumeRecoveryCode(actor.userId, first!)).toBe(false);
    await warmPool(5);
    const results = await Promise.all(Array.from({ length: 10 }, () => consumeRecoveryCode(actor.userId, second!)));
    expect(results.filter(Boolean)).toHaveLength(1);
    // Another person's code is not this person's.
    const other = await enrolled();
    expect(await consumeRecoveryCode(actor.userId, other.recoveryCodes[0]!)).toBe(false);
    expect(await prisma.recoveryCode.count({ where: { userId: actor.userId, usedAt: null } })).toBe(8);
  });
});

describe("concurrent completions of one challenge (issue 24, finding 7)", () => {
  // The challenge is claimed in the transaction that uses the code: a completion that finds it
  // claimed spends nothing. Before, each request spent its code and only then tried the claim.
  it("4 different recovery codes at once: one session, one code used", async () => {
    const { actor, recoveryCodes } = await enrolled();
    const token = await passwordStep(actor.email);
    await warmPool(6);
    const outcomes = await Promise.all(recoveryCodes.slice(0, 4).map((code) => messageOf(signInWithSecondFactor(token, code, meta()))));
    expect(outcomes.filter((outcome) => outcome === "signed in")).toHaveLength(1);
    expect(await prisma.userSession.count({ where: { userId: actor.userId } })).toBe(1);
    expect(await prisma.recoveryCode.count({ where: { userId: actor.userId, usedAt: { not: null } } })).toBe(1);
    expect(await prisma.auditLog.count({ where: { actorId: actor.userId, action: "auth.recovery_code_used" } })).toBe(1);
  });

  it("the same recovery code 4 times at once: one session, one code used", async () => {
    const { actor, recoveryCodes } = await enrolled();
    const token = await passwordStep(actor.email);
    await warmPool(6);
    const outcomes = await Promise.all(Array.from({ length: 4 }, () => messageOf(signInWithSecondFactor(token, recoveryCodes[0]!, meta()))));
    expect(outcomes.filter((outcome) => outcome === "signed in")).toHaveLength(1);
    expect(await prisma.userSession.count({ where: { userId: actor.userId } })).toBe(1);
    expect(await prisma.recoveryCode.count({ where: { userId: actor.userId, usedAt: null } })).toBe(9);
    // The others lost the claim: their right code was not called wrong, nor counted against the challenge.
    expect(outcomes.filter((outcome) => outcome !== "signed in").every((outcome) => /timed out/.test(outcome))).toBe(true);
    expect(await prisma.auditLog.count({ where: { actorId: actor.userId, action: "auth.sign_in_failed" } })).toBe(0);
  });

  it("the app's code and a recovery code at once: one session, and the recovery code is kept when the app's code won", async () => {
    const { actor, secret, recoveryCodes } = await enrolled();
    const token = await passwordStep(actor.email);
    const step = totpStep();
    await warmPool(6);
    const outcomes = await Promise.all([
      messageOf(signInWithSecondFactor(token, totpCodeAt(secret, step), meta())),
      messageOf(signInWithSecondFactor(token, recoveryCodes[0]!, meta())),
    ]);
    expect(outcomes.filter((outcome) => outcome === "signed in")).toHaveLength(1);
    expect(await prisma.userSession.count({ where: { userId: actor.userId } })).toBe(1);
    const usedRecoveryCodes = await prisma.recoveryCode.count({ where: { userId: actor.userId, usedAt: { not: null } } });
    const stepMoved = (await prisma.twoFactor.findUniqueOrThrow({ where: { userId: actor.userId } })).lastUsedStep === step;
    // Exactly one of the two codes was spent: the one that opened the session.
    expect(usedRecoveryCodes + (stepMoved ? 1 : 0)).toBe(1);
    expect(outcomes[0] === "signed in" ? stepMoved : usedRecoveryCodes === 1).toBe(true);
  });
});

describe("sign-in with two factors", () => {
  it("never opens a session with the password alone; the code completes the challenge once", async () => {
    const { actor, secret } = await enrolled();
    const token = await passwordStep(actor.email);
    expect(await prisma.userSession.count({ where: { userId: actor.userId } })).toBe(0);
    const row = await prisma.signInChallenge.findFirstOrThrow({ where: { userId: actor.userId } });
    expect(row.tokenHash).not.toBe(token);

    const user = await signInWithSecondFactor(token, totpCodeAt(secret, totpStep()), meta());
    expect(user.id).toBe(actor.userId);
    const session = await prisma.userSession.findUniqueOrThrow({ where: { id: user.sessionId } });
    expect(Date.now() - session.reauthenticatedAt.getTime()).toBeLessThan(60_000);

    // The same challenge again, even with a new code: used up.
    await forgetUsedSteps(actor.userId);
    expect(await messageOf(signInWithSecondFactor(token, totpCodeAt(secret, totpStep()), meta()))).toMatch(/timed out/);
    // A new challenge with the code just used: refused (replay).
    const again = await passwordStep(actor.email);
    const code = totpCodeAt(secret, totpStep());
    expect(await messageOf(signInWithSecondFactor(again, code, meta()))).toBe("signed in");
    const third = await passwordStep(actor.email);
    expect(await messageOf(signInWithSecondFactor(third, code, meta()))).toMatch(/used already/);
  });

  it("needs a challenge of its own: no cookie, a made-up one, or another person's challenge with my code do not sign in", async () => {
    const mine = await enrolled();
    const theirs = await enrolled();
    const code = totpCodeAt(mine.secret, totpStep());
    expect(await messageOf(signInWithSecondFactor(undefined, code, meta()))).toMatch(/timed out/);
    expect(await messageOf(signInWithSecondFactor(randomBytes(32).toString("base64url"), code, meta()))).toMatch(/timed out/);
    const theirToken = await passwordStep(theirs.actor.email);
    // Checked against the challenge's person: my code is wrong for them.
    const outcome = await messageOf(signInWithSecondFactor(theirToken, code, meta()));
    if (code !== totpCodeAt(theirs.secret, totpStep())) expect(outcome).toMatch(/not right/);
    expect(await prisma.userSession.count({ where: { userId: { in: [mine.actor.userId, theirs.actor.userId] } } })).toBe(0);
  });

  it("takes a recovery code once instead of the app's code, and records it", async () => {
    const { actor, recoveryCodes } = await enrolled();
    expect(await messageOf(signInWithSecondFactor(await passwordStep(actor.email), recoveryCodes[0]!, meta()))).toBe("signed in");
    expect(await messageOf(signInWithSecondFactor(await passwordStep(actor.email), recoveryCodes[0]!, meta()))).toMatch(/used already/);
    const record = await prisma.auditLog.findFirstOrThrow({ where: { actorId: actor.userId, action: "auth.recovery_code_used" } });
    expect(record.metadata).toEqual({ left: 9 });
  });

  it("drops a challenge after five wrong codes: the password must be entered again", async () => {
    const { actor, secret } = await enrolled();
    const token = await passwordStep(actor.email);
    const ip = address();
    const valid = new Set([-1, 0, 1].map((offset) => totpCodeAt(secret, totpStep() + offset)));
    const wrong = ["000000", "111111", "222222", "333333", "444444", "555555", "666666"].filter((code) => !valid.has(code));
    for (let i = 1; i < CHALLENGE_MAX_FAILURES; i++) expect(await messageOf(signInWithSecondFactor(token, wrong[i]!, { ip, userAgent: null }))).toMatch(/not right/);
    expect(await messageOf(signInWithSecondFactor(token, wrong[0]!, { ip, userAgent: null }))).toMatch(/Too many wrong codes for this sign-in/);
    expect(await messageOf(signInWithSecondFactor(token, totpCodeAt(secret, totpStep()), { ip, userAgent: null }))).toMatch(/timed out/);
  });
});

describe("next-auth's authorize, in two steps", () => {
  const credentials = authOptions.providers[0] as unknown as { options: CredentialsConfig };
  const authorize = (body: Record<string, string>, headers: Record<string, string>) =>
    credentials.options.authorize(body, { headers, body, query: {}, method: "POST" } as never);

  it("answers the password with TWO_FACTOR_REQUIRED and an httpOnly challenge cookie, then the code with the session", async () => {
    const { actor, secret } = await enrolled();
    signedOut({ path: "/api/auth/callback/credentials" });
    const headers = { "x-forwarded-for": address(), "user-agent": "vitest" };
    await expect(authorize({ email: actor.email, password: PASSWORD }, headers)).rejects.toThrow(TWO_FACTOR_REQUIRED);
    expect(await prisma.userSession.count({ where: { userId: actor.userId } })).toBe(0);
    const cookie = currentRequestHeaders().get("cookie") ?? "";
    expect(cookie).toContain(`${challengeCookie().name}=`);

    // The code alone, without the cookie: no session.
    await expect(authorize({ code: totpCodeAt(secret, totpStep()) }, headers)).rejects.toThrow(/timed out/);
    const user = (await authorize({ code: totpCodeAt(secret, totpStep()) }, { ...headers, cookie })) as { id: string; sid: string } | null;
    expect(user?.id).toBe(actor.userId);
    expect(await prisma.userSession.count({ where: { id: user!.sid, revokedAt: null } })).toBe(1);
    // The same code and cookie once more: refused.
    await expect(authorize({ code: totpCodeAt(secret, totpStep()) }, { ...headers, cookie })).rejects.toThrow(/timed out/);
  });
});

describe("the code throttle", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env.AUTH_MAX_FAILURES_PER_ACCOUNT = saved.AUTH_MAX_FAILURES_PER_ACCOUNT;
    if (saved.AUTH_MAX_FAILURES_PER_ACCOUNT === undefined) delete process.env.AUTH_MAX_FAILURES_PER_ACCOUNT;
  });

  it("refuses even the right code from an address past the limit of wrong codes, and says how long to wait", async () => {
    process.env.AUTH_MAX_FAILURES_PER_ACCOUNT = "3";
    const { actor, secret } = await enrolled();
    const ip = address();
    const valid = new Set([-1, 0, 1].map((offset) => totpCodeAt(secret, totpStep() + offset)));
    const wrong = ["000000", "111111", "222222", "333333", "444444"].filter((code) => !valid.has(code));
    for (let i = 0; i < 3; i++) {
      // A fresh challenge each time, so the challenge's own limit is not what stops it.
      expect(await messageOf(signInWithSecondFactor(await passwordStep(actor.email, ip), wrong[i]!, { ip, userAgent: null }))).toMatch(/not right/);
    }
    const token = await passwordStep(actor.email, ip);
    expect(await messageOf(signInWithSecondFactor(token, totpCodeAt(secret, totpStep()), { ip, userAgent: null }))).toBe(
      "Too many wrong codes. Try again in 15 minutes.",
    );
    // Counted apart from passwords: the password step itself was not held back.
    expect(await prisma.authAttempt.count({ where: { kind: "two-factor", account: actor.email, success: false } })).toBe(3);
  });

  it("counts 40 simultaneous wrong codes exactly: no more than the limit are checked", async () => {
    process.env.AUTH_MAX_FAILURES_PER_ACCOUNT = "10";
    const member = await addMember(await createTeam(), "MEMBER");
    const { actor, secret } = await enrolled(member);
    const ip = address();
    const valid = new Set([-1, 0, 1].map((offset) => totpCodeAt(secret, totpStep() + offset)));
    const wrong = Array.from({ length: 40 }, (_, i) => String(100000 + i)).filter((code) => !valid.has(code));
    const token = await passwordStep(actor.email, ip);
    await warmPool(5);
    const outcomes = await Promise.all(wrong.map((code) => messageOf(completeSignInChallenge(token, code, { ip }))));
    // Through the throttle: exactly the limit (each then wrong, or stopped by the challenge's own limit).
    const checked = outcomes.filter((outcome) => !outcome.startsWith("Too many wrong codes. Try again")).length;
    expect(checked).toBe(10);
    expect(await prisma.authAttempt.count({ where: { kind: "two-factor", account: actor.email } })).toBe(10 + 1); // + the enrolment's code
  });
});
