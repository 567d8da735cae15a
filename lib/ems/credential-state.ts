import "server-only";
import { prisma, type TransactionClient } from "@/lib/db/prisma";
import { emsLog, shortId } from "./log";
import { currentRateLimit, type RateLimit } from "./rate-limit";
import { ems } from "./state";

/**
 * What the portal knows about a credential beyond its token: the failing mark the settings page
 * shows, the last rate-limit figures, and forgetting all of it when the credential goes away.
 */

/** Records that the credential is failing (shown on the settings page) and drops its token. */
export async function markCredentialFailing(fingerprint: string, reason: string): Promise<void> {
  ems.tokens.delete(fingerprint);
  ems.failing.set(fingerprint, true);
  const data = { failedAt: new Date(), failureReason: reason.slice(0, 500), tokenCiphertext: null, expiresAt: null };
  await prisma.emsTokenCache.upsert({ where: { fingerprint }, create: { fingerprint, ...data }, update: data });
  emsLog("warn", "ems.credential_failing", { fingerprint: shortId(fingerprint), reason });
}

/** A call succeeded: clear a failing mark this process knows of (cheap when there is none). */
export async function noteCredentialWorking(fingerprint: string): Promise<void> {
  if (ems.failing.get(fingerprint) !== true) return;
  ems.failing.set(fingerprint, false);
  await prisma.emsTokenCache.updateMany({ where: { fingerprint, failedAt: { not: null } }, data: { failedAt: null, failureReason: null } });
}

export type CredentialState = {
  failedAt: Date | null;
  failureReason: string | null;
  rateLimit: RateLimit | null;
  /** Expiry of the shared token, if one is cached. */
  tokenExpiresAt: Date | null;
};

/** What EmsTokenCache says about a credential (rate-limit figures from memory when newer), or null. */
export async function getCredentialState(fingerprint: string): Promise<CredentialState | null> {
  const row = await prisma.emsTokenCache.findUnique({ where: { fingerprint } });
  const memoryRateLimit = currentRateLimit(fingerprint);
  if (!row) return memoryRateLimit ? { failedAt: null, failureReason: null, rateLimit: memoryRateLimit, tokenExpiresAt: null } : null;
  const stored =
    row.rateLimitLimit !== null && row.rateLimitRemaining !== null && row.rateLimitResetAt !== null
      ? { limit: row.rateLimitLimit, remaining: row.rateLimitRemaining, resetAt: row.rateLimitResetAt }
      : null;
  return {
    failedAt: row.failedAt,
    failureReason: row.failureReason,
    rateLimit: memoryRateLimit ?? stored,
    tokenExpiresAt: row.tokenCiphertext ? row.expiresAt : null,
  };
}

/**
 * The state for a figure that only adds to a page or a plan (the rate-limit line, the failing mark,
 * a sync's share): null when it cannot be read now, logged, so that a database hiccup costs the
 * figure and not the page or the sync. `purpose` names the reader in the log line.
 */
export async function credentialStateIfReadable(fingerprint: string, purpose: string): Promise<CredentialState | null> {
  try {
    return await getCredentialState(fingerprint);
  } catch (error) {
    emsLog("warn", "ems.credential_state_unreadable", { fingerprint: shortId(fingerprint), purpose, err: error instanceof Error ? error.message : String(error) });
    return null;
  }
}

/**
 * Deletes the credential's stored token and state with the caller's client, so that it can happen
 * inside the transaction that deletes or replaces the credential. Follow it, once committed, with
 * `forgetCredential` for this process's memory.
 */
export async function dropCredentialState(db: TransactionClient, fingerprint: string): Promise<void> {
  await db.emsTokenCache.deleteMany({ where: { fingerprint } });
  // Nobody uses the credential any more: every team's shared answers of it go too.
  await db.emsSharedAnswer.deleteMany({ where: { fingerprint } });
  await db.setupResult.deleteMany({ where: { fingerprint } });
}

/** Forgets everything about a credential (its token, state and shared answers): call when a credential is deleted or replaced. */
export async function forgetCredential(fingerprint: string): Promise<void> {
  ems.tokens.delete(fingerprint);
  ems.failing.delete(fingerprint);
  ems.rateLimits.delete(fingerprint);
  const writer = ems.rateLimitWriters.get(fingerprint);
  if (writer?.timer) clearTimeout(writer.timer);
  ems.rateLimitWriters.delete(fingerprint);
  // A rate-limit write already under way would bring the row back after the delete.
  await Promise.all([...ems.pendingWrites]);
  await dropCredentialState(prisma, fingerprint);
}
