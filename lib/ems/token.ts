import "server-only";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { prisma } from "@/lib/db/prisma";
import { decryptSecret, encryptSecret, secretAad } from "@/lib/crypto/secret-box";
import { renewBeforeMs, timeoutMs, TOKEN_PATH, MAX_GET_RETRIES } from "./config";
import { basicAuthorization, type EmsCredential } from "./credentials";
import { CredentialsRejectedError, EmsBadRequestError, InvalidResponseError, UpstreamUnavailableError, RateLimitedError } from "./errors";
import { computeTokenExpiry, parseDateHeader, parseExpiresAt } from "./expiry";
import { abortReason, emsHttp } from "./http";
import { emsLog } from "./log";
import { parseRateLimit, recordRateLimit, retryAfterSeconds, currentRateLimit, type RateLimit } from "./rate-limit";
import { ems, type CachedToken } from "./state";
import { apiErrorMessage } from "./responses";

/**
 * The token lifecycle, in one place: nothing else builds an Authorization header.
 *
 * Lookup order: this process's memory, then EmsTokenCache (shared by every instance, the token
 * encrypted with its fingerprint as associated data), then the token endpoint. Concurrent callers
 * in one process share one promise per credential; across instances a PostgreSQL advisory lock
 * (per fingerprint, held for the length of one transaction) serialises the token request, and the
 * cache row is read again once the lock is held, so the instances that waited reuse the token
 * the first one stored.
 */

/** The associated data of a cached token: bound to its row (fingerprint) and column. */
export function tokenCacheAad(fingerprint: string): string {
  return secretAad("EmsTokenCache", fingerprint, "tokenCiphertext");
}
const TOKEN_FIELD_AAD = tokenCacheAad;

/** Log-safe short id of a credential (the fingerprint is an HMAC: revealing a prefix reveals nothing). */
export function shortId(fingerprint: string): string {
  return fingerprint.slice(0, 12);
}

/**
 * Fresh enough to use: more than the renewal margin left. The margin is at most half of the
 * token's own lifetime, so short-lived tokens are still used (and renewed at half-life).
 */
export function isFresh(token: Pick<CachedToken, "expiresAt" | "obtainedAt">, now = Date.now()): boolean {
  const lifetime = token.expiresAt - token.obtainedAt;
  const margin = Math.min(renewBeforeMs(), Math.max(0, lifetime) / 2);
  return token.expiresAt - now > margin;
}

export interface GetTokenOptions {
  signal?: AbortSignal;
  requestId?: string;
  /** A token the API has just refused: never hand it out again. */
  rejected?: string;
}

/** A usable token for the credential (see the module comment for where it comes from). */
export async function getToken(credential: EmsCredential, options: GetTokenOptions = {}): Promise<CachedToken> {
  const { fingerprint } = credential;
  for (let round = 0; round < 3; round++) {
    const memory = ems.tokens.get(fingerprint);
    if (memory && memory.value !== options.rejected && isFresh(memory)) return memory;
    let shared = ems.inflight.get(fingerprint);
    if (!shared) {
      shared = acquireToken(credential, options.rejected, options.requestId ?? randomUUID()).finally(() => {
        if (ems.inflight.get(fingerprint) === shared) ems.inflight.delete(fingerprint);
      });
      ems.inflight.set(fingerprint, shared);
    }
    const token = await untilAborted(shared, options.signal);
    // A request started before this caller saw its 401 may bring back the refused token (read from
    // the shared cache): go round once more, this time with the refused token excluded.
    if (token.value !== options.rejected) return token;
  }
  throw new CredentialsRejectedError("the token endpoint kept returning a token the API refused");
}

/** Waits for a shared promise, but lets one caller give up without cancelling it for the others. */
function untilAborted<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

type CacheRow = { tokenCiphertext: string | null; expiresAt: Date | null; obtainedAt: Date | null; failedAt: Date | null };

/** The row's token when it is usable: decryptable, fresh, and not the refused one. */
function usableToken(fingerprint: string, row: CacheRow | null, rejected: string | undefined): CachedToken | null {
  if (!row) return null;
  ems.failing.set(fingerprint, row.failedAt !== null);
  if (!row.tokenCiphertext || !row.expiresAt) return null;
  let value: string;
  try {
    value = decryptSecret(row.tokenCiphertext, TOKEN_FIELD_AAD(fingerprint));
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

const SELECT_ROW = { tokenCiphertext: true, expiresAt: true, obtainedAt: true, failedAt: true } as const;

async function acquireToken(credential: EmsCredential, rejected: string | undefined, requestId: string): Promise<CachedToken> {
  const { fingerprint } = credential;
  const cached = usableToken(fingerprint, await prisma.emsTokenCache.findUnique({ where: { fingerprint }, select: SELECT_ROW }), rejected);
  if (cached) {
    ems.tokens.set(fingerprint, cached);
    emsLog("info", "ems.token", { requestId, fingerprint: shortId(fingerprint), source: "database" });
    return cached;
  }

  const perAttempt = timeoutMs();
  // Long enough for the token request with its retries; the lock wait gives up a little earlier
  // so that the transaction ends cleanly instead of being cut by Prisma.
  const transactionTimeout = perAttempt * (MAX_GET_RETRIES + 1) + 2_000 * MAX_GET_RETRIES + 20_000;
  let outcome: { token: CachedToken; issued: IssuedToken | null };
  try {
    outcome = await prisma.$transaction(
      async (tx) => {
        // Inside the transaction only `tx`: on a one-connection pool the base client would wait for itself.
        await tx.$executeRaw`SELECT set_config('lock_timeout', ${`${transactionTimeout - 5_000}ms`}, true)`;
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`ems-token:${fingerprint}`}, 0))`;
        const again = usableToken(fingerprint, await tx.emsTokenCache.findUnique({ where: { fingerprint }, select: SELECT_ROW }), rejected);
        if (again) {
          emsLog("info", "ems.token", { requestId, fingerprint: shortId(fingerprint), source: "database_after_lock" });
          return { token: again, issued: null };
        }
        const issued = await requestToken(credential, requestId);
        const ciphertext = encryptSecret(issued.token.value, TOKEN_FIELD_AAD(fingerprint));
        const data = {
          tokenCiphertext: ciphertext,
          expiresAt: new Date(issued.token.expiresAt),
          obtainedAt: new Date(issued.token.obtainedAt),
          failedAt: null,
          failureReason: null,
        };
        await tx.emsTokenCache.upsert({ where: { fingerprint }, create: { fingerprint, ...data }, update: data });
        return { token: { ...issued.token, ciphertext }, issued };
      },
      { maxWait: transactionTimeout, timeout: transactionTimeout },
    );
  } catch (error) {
    if (error instanceof CredentialsRejectedError) await markCredentialFailing(fingerprint, error.detail ?? "The token request was refused (401).");
    throw error;
  }
  // Stored with failedAt cleared: a token was issued, so the key and secret work.
  if (outcome.issued) ems.failing.set(fingerprint, false);
  ems.tokens.set(fingerprint, outcome.token);
  return outcome.token;
}

type IssuedToken = { token: CachedToken };

const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  expires_at: z.unknown().optional(),
});

/** POST /api/v1/oauth2/token. Safe to repeat (a token request only issues a token), so it is retried like a GET. */
async function requestToken(credential: EmsCredential, requestId: string): Promise<IssuedToken> {
  const { fingerprint } = credential;
  const response = await emsHttp({
    method: "POST",
    url: `${credential.baseUrl.replace(/\/+$/, "")}${TOKEN_PATH}`,
    path: TOKEN_PATH,
    headers: {
      Authorization: basicAuthorization(credential.consumerKey, credential.consumerSecret),
      "Content-Type": "application/x-www-form-urlencoded;charset=UTF-8",
      Accept: "application/json",
    },
    body: "grant_type=client_credentials",
    requestId,
    fingerprint: shortId(fingerprint),
    retry: true,
  });
  const rateLimit = parseRateLimit(response.headers, response.receivedAt);
  // Kept in memory now; written to the database later, outside this transaction.
  if (rateLimit) recordRateLimit(fingerprint, rateLimit, response.receivedAt);
  if (response.status === 401 || response.status === 403) {
    const apiMessage = apiErrorMessage(response.bodyText);
    throw new CredentialsRejectedError(`The token request was refused (${response.status}${apiMessage ? `: ${apiMessage}` : ""}).`, response.status);
  }
  if (response.status === 429) throw new RateLimitedError(retryAfterSeconds(response.headers, response.receivedAt), "token endpoint answered 429", rateLimit);
  if (response.status >= 500) throw new UpstreamUnavailableError(`token endpoint answered ${response.status}`, { status: response.status });
  if (response.status !== 200) {
    throw new EmsBadRequestError(apiErrorMessage(response.bodyText) ?? `the token endpoint answered ${response.status}`, response.status);
  }
  let body: unknown;
  try {
    body = JSON.parse(response.bodyText);
  } catch {
    throw new InvalidResponseError("token endpoint answered with a body that is not JSON", response.status);
  }
  const parsed = tokenResponseSchema.safeParse(body);
  if (!parsed.success) throw new InvalidResponseError("token response has no access_token", response.status);
  const expiresAt = parseExpiresAt(parsed.data.expires_at);
  if (!expiresAt) {
    emsLog("warn", "ems.token_expiry_unreadable", { requestId, fingerprint: shortId(fingerprint) });
  }
  const expiry = computeTokenExpiry({ expiresAt, serverDate: parseDateHeader(response.headers.get("date")), requestSentAt: response.sentAt });
  emsLog("info", "ems.token", {
    requestId,
    fingerprint: shortId(fingerprint),
    source: "token_endpoint",
    validForSeconds: Math.round((expiry - Date.now()) / 1000),
  });
  return { token: { value: parsed.data.access_token, expiresAt: expiry, obtainedAt: response.sentAt, ciphertext: null } };
}

/**
 * The API refused `token` (401): forget it here and in EmsTokenCache, but only where it is still
 * the current token, so that a newer token another caller already fetched is kept.
 */
export async function invalidateToken(fingerprint: string, token: CachedToken): Promise<void> {
  const memory = ems.tokens.get(fingerprint);
  if (memory && memory.value === token.value) ems.tokens.delete(fingerprint);
  if (token.ciphertext) {
    await prisma.emsTokenCache.updateMany({
      where: { fingerprint, tokenCiphertext: token.ciphertext },
      data: { tokenCiphertext: null, expiresAt: null },
    });
  }
}

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

/** Forgets everything about a credential (its token and state): call when a credential is deleted or replaced. */
export async function forgetCredential(fingerprint: string): Promise<void> {
  ems.tokens.delete(fingerprint);
  ems.failing.delete(fingerprint);
  ems.rateLimits.delete(fingerprint);
  const writer = ems.rateLimitWriters.get(fingerprint);
  if (writer?.timer) clearTimeout(writer.timer);
  ems.rateLimitWriters.delete(fingerprint);
  // A rate-limit write already under way would bring the row back after the delete.
  await Promise.all([...ems.pendingWrites]);
  await prisma.emsTokenCache.deleteMany({ where: { fingerprint } });
}
