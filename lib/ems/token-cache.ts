import "server-only";
import { randomUUID } from "node:crypto";
import { prisma } from "@/lib/db/prisma";
import { decryptSecret, encryptSecret, secretAad } from "@/lib/crypto/secret-box";
import { isFresh } from "./expiry";
import { emsLog, shortId } from "./log";
import type { CachedToken } from "./state";
import { tokenRequestDeadlineMs } from "./token-endpoint";

/**
 * The token every instance shares (a row of EmsTokenCache, the token encrypted and bound to its
 * row), and the lease on replacing it. Only the holder of an unexpired lease asks the token endpoint.
 * The lease is claimed, and given back, by single statements: no lock, transaction or connection is
 * held while the token request is in flight, and a holder that dies leaves a lease that simply runs
 * out. Lease times are the database's (`now()`), so instances whose clocks differ still agree on
 * when a lease has run out; local clocks only measure durations.
 */

/** The associated data of a cached token: bound to its row (fingerprint) and column. */
export function tokenCacheAad(fingerprint: string): string {
  return secretAad("EmsTokenCache", fingerprint, "tokenCiphertext");
}

/** Time left in a lease after its token request's deadline, to store the token and give the lease back. */
const LEASE_WRITE_MARGIN_MS = 2_000;

let leaseOverrideMs: number | null = null;

/**
 * How long a lease lasts: the token request's own deadline (every attempt and backoff) plus time to
 * store the result. The holder stops asking when its lease ends, so a shorter lease would cut slow
 * but healthy requests short; a longer one would only delay the take-over after a holder dies.
 */
export function tokenLeaseMs(): number {
  return leaseOverrideMs ?? tokenRequestDeadlineMs() + LEASE_WRITE_MARGIN_MS;
}

/** For tests: a short lease (null restores the default), so a killed holder's lease runs out in seconds. */
export function setTokenLeaseMs(ms: number | null): void {
  leaseOverrideMs = ms === null ? null : Math.max(1, Math.ceil(ms));
}

type TokenColumns = { tokenCiphertext: string | null; expiresAt: Date | null; obtainedAt: Date | null; failedAt: Date | null };

/** The row's token when it is usable: decryptable, fresh, and not the refused one. */
function usableToken(fingerprint: string, row: TokenColumns, rejected: string | undefined): CachedToken | null {
  if (!row.tokenCiphertext || !row.expiresAt) return null;
  let value: string;
  try {
    value = decryptSecret(row.tokenCiphertext, tokenCacheAad(fingerprint));
  } catch (error) {
    // A rotated-away key or a tampered row: the cached token is just unusable; get a new one.
    emsLog("warn", "ems.token_cache_unreadable", { fingerprint: shortId(fingerprint), errorName: error instanceof Error ? error.name : "Error" });
    return null;
  }
  const token: CachedToken = {
    value,
    expiresAt: row.expiresAt.getTime(),
    obtainedAt: (row.obtainedAt ?? row.expiresAt).getTime() - (row.obtainedAt ? 0 : 30 * 60_000),
    ciphertext: row.tokenCiphertext,
  };
  if (value === rejected || !isFresh(token)) return null;
  return token;
}

export interface SharedToken {
  /** The stored token, when usable. */
  token: CachedToken | null;
  /** The row carries a failing mark (credential-state.ts). */
  failing: boolean;
}

/** What EmsTokenCache holds for the credential, or null when it has no row. */
export async function readSharedToken(fingerprint: string, rejected?: string): Promise<SharedToken | null> {
  const row = await prisma.emsTokenCache.findUnique({
    where: { fingerprint },
    select: { tokenCiphertext: true, expiresAt: true, obtainedAt: true, failedAt: true },
  });
  if (!row) return null;
  return { token: usableToken(fingerprint, row, rejected), failing: row.failedAt !== null };
}

export interface TokenLease {
  fingerprint: string;
  id: string;
  /**
   * Local epoch ms by which the holder must be done with the token endpoint. Counted from before
   * the claim was sent, so it falls before the lease runs out in the database.
   */
  mustFinishBy: number;
  /** A usable token stored between the caller's last look at the row and this claim: use it, ask for none. */
  token: CachedToken | null;
  failing: boolean;
}

/**
 * Claims the right to ask the token endpoint for this credential, if nobody holds it (or the holder's
 * lease has run out). This statement alone decides, between any number of claimants on any number
 * of instances (nobody looks at the lease columns first): INSERT ... ON CONFLICT locks the row, and
 * its WHERE is checked against the version a competing claim has just committed. Null when someone
 * else holds the lease.
 */
export async function claimTokenLease(fingerprint: string, rejected?: string): Promise<TokenLease | null> {
  const id = randomUUID();
  const leaseMs = tokenLeaseMs();
  const claimedFrom = Date.now();
  const rows = await prisma.$queryRaw<TokenColumns[]>`
    INSERT INTO "EmsTokenCache" ("fingerprint", "leaseId", "leaseUntil", "updatedAt")
    VALUES (${fingerprint}, ${id}, (now() AT TIME ZONE 'UTC') + ${leaseMs}::integer * interval '1 millisecond', (now() AT TIME ZONE 'UTC'))
    ON CONFLICT ("fingerprint") DO UPDATE
      SET "leaseId" = excluded."leaseId", "leaseUntil" = excluded."leaseUntil", "updatedAt" = excluded."updatedAt"
      WHERE "EmsTokenCache"."leaseUntil" IS NULL OR "EmsTokenCache"."leaseUntil" <= (now() AT TIME ZONE 'UTC')
    RETURNING "tokenCiphertext", "expiresAt", "obtainedAt", "failedAt"`;
  const row = rows[0];
  if (!row) return null;
  return {
    fingerprint,
    id,
    mustFinishBy: claimedFrom + leaseMs - Math.min(LEASE_WRITE_MARGIN_MS, leaseMs / 4),
    token: usableToken(fingerprint, row, rejected),
    failing: row.failedAt !== null,
  };
}

/**
 * Stores the holder's new token and ends its lease in one statement, only while the lease is still
 * this holder's: after a take-over (or once the credential was forgotten) it changes nothing and
 * returns null. The failing mark is cleared with it: a token was issued, so the key and secret work.
 */
export async function storeTokenAndRelease(lease: TokenLease, token: CachedToken): Promise<CachedToken | null> {
  const ciphertext = encryptSecret(token.value, tokenCacheAad(lease.fingerprint));
  const { count } = await prisma.emsTokenCache.updateMany({
    where: { fingerprint: lease.fingerprint, leaseId: lease.id },
    data: {
      tokenCiphertext: ciphertext,
      expiresAt: new Date(token.expiresAt),
      obtainedAt: new Date(token.obtainedAt),
      failedAt: null,
      failureReason: null,
      leaseId: null,
      leaseUntil: null,
    },
  });
  return count === 1 ? { ...token, ciphertext } : null;
}

/** Gives the lease back without a token (the request failed), so that waiters need not wait for it to run out. */
export async function releaseTokenLease(lease: TokenLease): Promise<void> {
  await prisma.emsTokenCache.updateMany({ where: { fingerprint: lease.fingerprint, leaseId: lease.id }, data: { leaseId: null, leaseUntil: null } });
}

/** Drops the stored token, but only while it is still `ciphertext`: a newer one stored meanwhile is kept. */
export async function dropSharedToken(fingerprint: string, ciphertext: string): Promise<void> {
  await prisma.emsTokenCache.updateMany({
    where: { fingerprint, tokenCiphertext: ciphertext },
    data: { tokenCiphertext: null, expiresAt: null },
  });
}
