import "server-only";
import { createHash, randomBytes } from "node:crypto";
import QRCode from "qrcode";
import { prisma, type TransactionClient } from "@/lib/db/prisma";
import { audit, auditByActor } from "@/lib/audit/log";
import { decryptSecret, encryptSecret } from "@/lib/crypto";
import { FieldError, SafeError } from "@/lib/errors";
import { formatSeconds } from "@/lib/duration";
import { assertRecentPassword } from "@/lib/access/recent-auth";
import { sendSecurityNotice } from "./security-notice";
import type { Actor } from "@/lib/access/actor";
import { twoFactorAad } from "./two-factor-aad";
import { beginTwoFactorAttempt, passwordAttemptSucceeded } from "./throttle";
import { hashRecoveryCode, matchingTotpStep, newRecoveryCodes, newTotpSecret, normalizeRecoveryCode, normalizeTotpCode, totpUri } from "./totp";

/**
 * Two-factor sign-in with TOTP: enrolment, the codes' single use, recovery codes, turning it off.
 *
 * - The secret is encrypted with the key ring (lib/crypto), bound to its row: `TwoFactor:<userId>:secret`.
 * - A code is accepted by ONE conditional UPDATE that moves `lastUsedStep` forward (`acceptTotpCode`):
 *   of two requests with the same code, however close together, exactly one moves it; the other
 *   finds the step already used. A code older than the last accepted one is refused too.
 * - Recovery codes are stored as SHA-256 digests (lib/auth/totp.ts says why) and consumed by one
 *   conditional UPDATE each: a code works once.
 * - Every guess of a code is throttled like a password (kind "two-factor", lib/auth/throttle.ts).
 * - Enrolling (start, the secret's display, confirm), new recovery codes and turning it off need a
 *   recent password in this session (lib/access/recent-auth.ts), checked here as well as by the
 *   actions: a stale cookie cannot put its holder's own app on the account.
 */

/** What the checks of a recent password read from the actor. */
type ProvingActor = Pick<Actor, "userId" | "reauthenticatedAt" | "passwordVerifiedAt">;

export const WRONG_CODE_MESSAGE = "That code is not right, or it was used already. Enter the newest code from your app.";

export { twoFactorAad };

function decryptTotpSecret(userId: string, ciphertext: string): string {
  return decryptSecret(ciphertext, twoFactorAad(userId));
}

export interface TwoFactorStatus {
  enabled: boolean;
  enabledAt: Date | null;
  /** An enrolment waits for its first code. */
  pending: boolean;
  recoveryCodesLeft: number;
}

export async function twoFactorStatus(userId: string): Promise<TwoFactorStatus> {
  const [row, recoveryCodesLeft] = await Promise.all([
    prisma.twoFactor.findUnique({ where: { userId }, select: { enabledAt: true } }),
    prisma.recoveryCode.count({ where: { userId, usedAt: null } }),
  ]);
  return { enabled: !!row?.enabledAt, enabledAt: row?.enabledAt ?? null, pending: !!row && !row.enabledAt, recoveryCodesLeft };
}

export interface Enrolment {
  /** Base32, for typing into an app by hand. */
  secret: string;
  uri: string;
  /** The QR code of `uri` as one SVG path on a square grid of `size` modules (quiet zone included). */
  qr: { size: number; path: string };
}

/**
 * Starts (or starts again) an enrolment: a new secret, stored encrypted, not guarding sign-in until
 * `confirmEnrolment` sees a code made with it. Refused while two-factor is on (turn it off first).
 */
export async function startEnrolment(actor: ProvingActor & Pick<Actor, "email" | "teamId">, meta: { ip: string }): Promise<void> {
  assertRecentPassword(actor);
  const userId = actor.userId;
  const secretCiphertext = encryptSecret(newTotpSecret(), twoFactorAad(userId));
  // Never over an enabled factor: the conditional update leaves such a row alone.
  const replaced = await prisma.twoFactor.updateMany({ where: { userId, enabledAt: null }, data: { secretCiphertext, lastUsedStep: null } });
  if (replaced.count !== 1) {
    try {
      await prisma.twoFactor.create({ data: { userId, secretCiphertext } });
    } catch {
      throw new SafeError("Two-factor sign-in is already on.", "two_factor_enabled");
    }
  }
  await auditByActor(actor, { action: "auth.two_factor_enrolment_started", target: userId, ip: meta.ip });
}

/**
 * What the enrolment page shows: the pending secret, its URI and QR code; null when none is pending.
 * The secret is the factor itself, so it is shown only to a session with a recent password.
 */
export async function pendingEnrolment(actor: ProvingActor & Pick<Actor, "email">): Promise<Enrolment | null> {
  assertRecentPassword(actor);
  const row = await prisma.twoFactor.findUnique({ where: { userId: actor.userId } });
  if (!row || row.enabledAt) return null;
  const secret = decryptTotpSecret(actor.userId, row.secretCiphertext);
  const uri = totpUri(secret, actor.email);
  return { secret, uri, qr: qrPath(uri) };
}

/** Drops an enrolment that was not confirmed (never an enabled factor). */
export async function cancelEnrolment(actor: Pick<Actor, "userId">): Promise<void> {
  await prisma.twoFactor.deleteMany({ where: { userId: actor.userId, enabledAt: null } });
}

/**
 * The QR code as one SVG path (a 1×1 square per dark module), rendered by the page as an <svg>:
 * no script, no data URL, nothing for the Content-Security-Policy to allow.
 */
export function qrPath(text: string): { size: number; path: string } {
  const qr = QRCode.create(text, { errorCorrectionLevel: "M" });
  const { size, data } = qr.modules;
  const margin = 4;
  let path = "";
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      if (data[y * size + x]) path += `M${x + margin} ${y + margin}h1v1h-1z`;
    }
  }
  return { size: size + 2 * margin, path };
}

/**
 * Accepts `code` for `userId` at most once: finds the step it belongs to (±1 step, newer than the
 * last used one) and moves `lastUsedStep` to it in one conditional UPDATE, which only one of any
 * number of concurrent requests can do. `enabled`: the factor must be on (sign-in, re-authentication,
 * turning off); false for the enrolment's first code.
 */
export async function acceptTotpCode(userId: string, code: string, options: { enabled: boolean; at?: number; db?: TransactionClient }): Promise<boolean> {
  const db = options.db ?? prisma;
  const row = await db.twoFactor.findUnique({ where: { userId } });
  if (!row || !!row.enabledAt !== options.enabled) return false;
  const step = matchingTotpStep(decryptTotpSecret(userId, row.secretCiphertext), code, { at: options.at, lastUsedStep: row.lastUsedStep });
  if (step === null) return false;
  // The replay guard: the step must still be newer than the last used one when the row is written
  // (a concurrent request with the same code waits for the row lock, then sees the new value), and
  // the secret must still be the one the code was checked against.
  const moved = await db.$executeRaw`
    UPDATE "TwoFactor" SET "lastUsedStep" = ${step}, "updatedAt" = now()
    WHERE "userId" = ${userId} AND "secretCiphertext" = ${row.secretCiphertext}
      AND ("lastUsedStep" IS NULL OR "lastUsedStep" < ${step})`;
  return moved === 1;
}

/** Uses one recovery code of `userId`: true exactly once per code. */
export async function consumeRecoveryCode(userId: string, code: string, db: TransactionClient | typeof prisma = prisma): Promise<boolean> {
  if (!normalizeRecoveryCode(code)) return false;
  const used = await db.recoveryCode.updateMany({
    where: { userId, codeHash: hashRecoveryCode(userId, code), usedAt: null },
    data: { usedAt: new Date() },
  });
  return used.count === 1;
}

/** Replaces every recovery code of `userId` with ten new ones and returns them (shown once). */
async function issueRecoveryCodes(tx: TransactionClient, userId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  await tx.recoveryCode.deleteMany({ where: { userId } });
  await tx.recoveryCode.createMany({ data: codes.map((code) => ({ userId, codeHash: hashRecoveryCode(userId, code) })) });
  return codes;
}

/** Words for a refused guess of a code. */
export function codeThrottleMessage(retryAfterSeconds: number): string {
  return `Too many wrong codes. Try again in ${formatSeconds(retryAfterSeconds)}.`;
}

/**
 * Checks a code typed by a signed-in person (their factor must be on), throttled: a TOTP code, or
 * with `allowRecoveryCode` one of their recovery codes. Throws FieldError on `field` when wrong or
 * throttled; returns which kind of code it was.
 */
export async function verifySignedInCode(
  actor: Pick<Actor, "userId" | "email">,
  code: string,
  meta: { ip: string; field: string; allowRecoveryCode?: boolean },
): Promise<"totp" | "recovery-code"> {
  const attempt = await beginTwoFactorAttempt(actor.email, meta.ip);
  if (!attempt.allowed) throw new FieldError(meta.field, codeThrottleMessage(attempt.retryAfterSeconds), "throttled");
  let kind: "totp" | "recovery-code" | null = null;
  if (normalizeTotpCode(code)) kind = (await acceptTotpCode(actor.userId, code, { enabled: true })) ? "totp" : null;
  else if (meta.allowRecoveryCode && (await consumeRecoveryCode(actor.userId, code))) kind = "recovery-code";
  if (!kind) throw new FieldError(meta.field, WRONG_CODE_MESSAGE, "wrong_code");
  await passwordAttemptSucceeded(attempt.attemptId);
  return kind;
}

export interface ConfirmedEnrolment {
  /** Shown once. */
  recoveryCodes: string[];
  /** The person's other sessions, ended with it. */
  otherSessionsEnded: number;
}

/**
 * Confirms an enrolment with the first code of the app: two-factor is on from now, and the ten
 * recovery codes returned here are the only time they are shown. Throttled like every code. Every
 * other session of the person ends with it (they signed in without the factor), and the person is
 * mailed about it.
 */
export async function confirmEnrolment(actor: Actor, code: string, meta: { ip: string }): Promise<ConfirmedEnrolment> {
  assertRecentPassword(actor);
  const attempt = await beginTwoFactorAttempt(actor.email, meta.ip);
  if (!attempt.allowed) throw new FieldError("code", codeThrottleMessage(attempt.retryAfterSeconds), "throttled");
  if (!(await acceptTotpCode(actor.userId, code, { enabled: false }))) {
    const pending = await prisma.twoFactor.count({ where: { userId: actor.userId, enabledAt: null } });
    if (!pending) throw new SafeError("Start the set-up again: it was cancelled or finished elsewhere.", "no_enrolment");
    throw new FieldError("code", "That code is not right. Check the time on your phone and enter the newest code.", "wrong_code");
  }
  await passwordAttemptSucceeded(attempt.attemptId);
  const confirmed = await prisma.$transaction(async (tx) => {
    const enabled = await tx.twoFactor.updateMany({ where: { userId: actor.userId, enabledAt: null }, data: { enabledAt: new Date() } });
    if (enabled.count !== 1) throw new SafeError("Two-factor sign-in is already on.", "two_factor_enabled");
    const recoveryCodes = await issueRecoveryCodes(tx, actor.userId);
    const ended = await tx.userSession.updateMany({ where: { userId: actor.userId, revokedAt: null, id: { not: actor.sessionId } }, data: { revokedAt: new Date() } });
    await auditByActor(actor, { action: "auth.two_factor_enabled", target: actor.userId, ip: meta.ip, metadata: { otherSessionsEnded: ended.count } }, tx);
    return { recoveryCodes, otherSessionsEnded: ended.count };
  });
  await sendSecurityNotice(actor, "two-factor-on", meta);
  return confirmed;
}

/**
 * Turns two-factor off, with a current code (or a recovery code: the phone may be lost). The
 * caller's action also requires a recent re-authentication. Refused while the team requires it.
 */
export async function disableTwoFactor(actor: Actor, code: string, meta: { ip: string }): Promise<void> {
  assertRecentPassword(actor);
  if (actor.teamRequiresTwoFactor) throw new SafeError("Your team requires two-factor sign-in: it cannot be turned off.", "team_requires_two_factor");
  const kind = await verifySignedInCode(actor, code, { ip: meta.ip, field: "code", allowRecoveryCode: true });
  await prisma.$transaction(async (tx) => {
    await tx.twoFactor.deleteMany({ where: { userId: actor.userId } });
    await tx.recoveryCode.deleteMany({ where: { userId: actor.userId } });
    await auditByActor(actor, { action: "auth.two_factor_disabled", target: actor.userId, ip: meta.ip, metadata: { with: kind } }, tx);
  });
  await sendSecurityNotice(actor, "two-factor-off", meta);
}

/** New recovery codes (the old ones stop working), with a current code; shown once. */
export async function regenerateRecoveryCodes(actor: Actor, code: string, meta: { ip: string }): Promise<string[]> {
  assertRecentPassword(actor);
  await verifySignedInCode(actor, code, { ip: meta.ip, field: "code" });
  const codes = await prisma.$transaction(async (tx) => {
    const codes = await issueRecoveryCodes(tx, actor.userId);
    await auditByActor(actor, { action: "auth.recovery_codes_regenerated", target: actor.userId, ip: meta.ip }, tx);
    return codes;
  });
  await sendSecurityNotice(actor, "recovery-codes", meta);
  return codes;
}

// ---- The pending sign-in between the password and the code -------------------------------------------

/** How long a sign-in waits for its code after the password. */
export const CHALLENGE_TTL_SECONDS = 5 * 60;
/** Wrong codes one challenge takes before the password must be entered again. */
export const CHALLENGE_MAX_FAILURES = 5;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** Whether sign-in asks this person for a code after the password. */
export async function hasTwoFactor(userId: string): Promise<boolean> {
  return (await prisma.twoFactor.count({ where: { userId, enabledAt: { not: null } } })) > 0;
}

/**
 * After a right password of a two-factor person: a challenge that the code completes. Returns the
 * token for the browser (a cookie); the row keeps only its SHA-256. Earlier open challenges of the
 * person are dropped: only the newest sign-in can be completed.
 */
export async function createSignInChallenge(userId: string): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await prisma.$transaction(async (tx) => {
    await tx.signInChallenge.deleteMany({ where: { userId } });
    await tx.signInChallenge.create({ data: { userId, tokenHash: sha256(token), expiresAt: new Date(Date.now() + CHALLENGE_TTL_SECONDS * 1000) } });
  });
  return token;
}

/** The open challenge a token names, or null (unknown, used, expired or out of tries). */
export async function openChallenge(token: string | null | undefined) {
  if (!token || token.length > 100) return null;
  return prisma.signInChallenge.findFirst({
    where: { tokenHash: sha256(token), usedAt: null, expiresAt: { gt: new Date() }, failures: { lt: CHALLENGE_MAX_FAILURES } },
    include: { user: { include: { membership: true } } },
  });
}

export const CHALLENGE_EXPIRED_MESSAGE = "Your sign-in timed out. Enter your email and password again.";

export interface SecondFactorResult {
  userId: string;
  teamId: string | null;
  email: string;
  name: string;
  sessionVersion: number;
  method: "totp" | "recovery-code";
}

/** Thrown inside the claiming transaction to undo the claim when the code is wrong. */
class WrongCodeRollback extends Error {}

/**
 * Claims the challenge and spends the code in ONE transaction (issue 24, finding 7), so exactly one
 * of any number of concurrent completions opens a session and exactly one code is spent:
 * - the claim comes first, by a conditional UPDATE whose row lock is held until the transaction
 *   ends; a concurrent completion of the same challenge waits for it, then finds the challenge used
 *   ("gone") and spends nothing. (Spending the code before claiming, as before, let four different
 *   recovery codes sent at once burn four codes for one session.)
 * - a wrong code throws inside the transaction, which undoes the claim: a wrong guess racing a
 *   right one does not take the challenge away from it.
 * - a TOTP code moves `lastUsedStep` in the same transaction (acceptTotpCode's conditional UPDATE),
 *   so the replay guard still holds across two challenges of the same person.
 */
async function claimChallengeWithCode(challengeId: string, userId: string, code: string): Promise<SecondFactorResult["method"] | "wrong" | "gone"> {
  try {
    return await prisma.$transaction(async (tx) => {
      const claimed = await tx.signInChallenge.updateMany({
        where: { id: challengeId, usedAt: null, expiresAt: { gt: new Date() }, failures: { lt: CHALLENGE_MAX_FAILURES } },
        data: { usedAt: new Date() },
      });
      if (claimed.count !== 1) return "gone";
      if (normalizeTotpCode(code)) {
        if (await acceptTotpCode(userId, code, { enabled: true, db: tx })) return "totp";
      } else if (await consumeRecoveryCode(userId, code, tx)) {
        return "recovery-code";
      }
      throw new WrongCodeRollback();
    });
  } catch (error) {
    if (error instanceof WrongCodeRollback) return "wrong";
    throw error;
  }
}

/**
 * The second step of a two-factor sign-in: the challenge from the browser's cookie and a code
 * (TOTP, or a recovery code). Throttled per account and address like passwords; a challenge takes
 * CHALLENGE_MAX_FAILURES wrong codes, then the password is asked again. The challenge is claimed
 * and the code spent in one transaction (`claimChallengeWithCode`): of concurrent completions,
 * one opens the session (the caller opens it) and the others spend nothing. Throws SafeError with
 * the words the form shows.
 */
export async function completeSignInChallenge(token: string | null | undefined, code: string, meta: { ip: string }): Promise<SecondFactorResult> {
  const challenge = await openChallenge(token);
  if (!challenge) throw new SafeError(CHALLENGE_EXPIRED_MESSAGE, "challenge_expired");
  const { user } = challenge;
  const teamId = user.membership?.teamId ?? null;

  const attempt = await beginTwoFactorAttempt(user.email, meta.ip);
  if (!attempt.allowed) throw new SafeError(codeThrottleMessage(attempt.retryAfterSeconds), "throttled");

  const outcome = await claimChallengeWithCode(challenge.id, user.id, code);
  // Completed by another request meanwhile (or expired): this one's code was not even checked.
  if (outcome === "gone") throw new SafeError(CHALLENGE_EXPIRED_MESSAGE, "challenge_expired");
  if (outcome === "wrong") {
    const [counted] = await prisma.$queryRaw<Array<{ failures: number }>>`
      UPDATE "SignInChallenge" SET "failures" = "failures" + 1 WHERE "id" = ${challenge.id} RETURNING "failures"`;
    await audit({ action: "auth.sign_in_failed", teamId, actorId: user.id, actorEmail: user.email, ip: meta.ip, metadata: { step: "two-factor" } });
    if ((counted?.failures ?? CHALLENGE_MAX_FAILURES) >= CHALLENGE_MAX_FAILURES) {
      throw new SafeError("Too many wrong codes for this sign-in. Enter your email and password again.", "challenge_expired");
    }
    throw new SafeError(WRONG_CODE_MESSAGE, "wrong_code");
  }
  await passwordAttemptSucceeded(attempt.attemptId);
  if (outcome === "recovery-code") {
    const left = await prisma.recoveryCode.count({ where: { userId: user.id, usedAt: null } });
    await audit({ action: "auth.recovery_code_used", teamId, actorId: user.id, actorEmail: user.email, ip: meta.ip, metadata: { left } });
  }
  return { userId: user.id, teamId, email: user.email, name: user.name, sessionVersion: user.sessionVersion, method: outcome };
}
