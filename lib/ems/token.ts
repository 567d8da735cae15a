import "server-only";
import { randomUUID } from "node:crypto";
import { untilAborted } from "@/lib/promises";
import { markCredentialFailing } from "./credential-state";
import type { EmsCredential } from "./credentials";
import { CredentialsRejectedError, UpstreamUnavailableError } from "./errors";
import { isFresh } from "./expiry";
import { sleep } from "./http";
import { emsLog, shortId } from "./log";
import { ems, type CachedToken } from "./state";
import { claimTokenLease, dropSharedToken, readSharedToken, releaseTokenLease, storeTokenAndRelease, tokenLeaseMs, type TokenLease } from "./token-cache";
import { requestToken } from "./token-endpoint";

/**
 * Where a token comes from, in order: this process's memory; EmsTokenCache, shared by every
 * instance; the token endpoint, asked only by the instance holding the credential's lease
 * (token-cache.ts) while the others watch the row for the token it stores. Concurrent callers in
 * one process share one promise per credential. Nothing else builds an Authorization header.
 */

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

/**
 * The API refused `token` (401): forget it here and in EmsTokenCache, but only where it is still
 * the current token, so that a newer token another caller already fetched is kept.
 */
export async function invalidateToken(fingerprint: string, token: CachedToken): Promise<void> {
  const memory = ems.tokens.get(fingerprint);
  if (memory && memory.value === token.value) ems.tokens.delete(fingerprint);
  if (token.ciphertext) await dropSharedToken(fingerprint, token.ciphertext);
}

const POLL_FIRST_MS = 50;
const POLL_MAX_MS = 500;

/**
 * Between two looks at the row while another instance holds the lease: soon at first (a token
 * request usually takes a fraction of a second), then at most about twice a second, jittered so that
 * the waiting instances do not query in step.
 */
function pollDelay(poll: number): number {
  const ceiling = Math.min(POLL_FIRST_MS * 2 ** poll, POLL_MAX_MS);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

function remember(fingerprint: string, token: CachedToken, source: string, requestId: string): CachedToken {
  ems.tokens.set(fingerprint, token);
  emsLog("info", "ems.token", { requestId, fingerprint: shortId(fingerprint), source });
  return token;
}

async function acquireToken(credential: EmsCredential, rejected: string | undefined, requestId: string): Promise<CachedToken> {
  const { fingerprint } = credential;
  // A live holder is done within its lease and a dead one's lease runs out: two leases cover a
  // holder that fails and the one that then takes over. Beyond that something else is wrong.
  const giveUpAt = Date.now() + 2 * tokenLeaseMs();
  for (let poll = 0; ; poll++) {
    const shared = await readSharedToken(fingerprint, rejected);
    if (shared) ems.failing.set(fingerprint, shared.failing);
    if (shared?.token) return remember(fingerprint, shared.token, poll === 0 ? "database" : "database_after_wait", requestId);
    const lease = await claimTokenLease(fingerprint, rejected);
    if (lease) return refreshUnderLease(credential, lease, requestId);
    if (Date.now() >= giveUpAt) {
      throw new UpstreamUnavailableError(`no token appeared in EmsTokenCache within ${Math.round((2 * tokenLeaseMs()) / 1000)} s while other instances held the lease`, {
        timedOut: true,
      });
    }
    await sleep(pollDelay(poll));
  }
}

/** Holding the lease: ask the token endpoint (within the lease), store the token, give the lease back. */
async function refreshUnderLease(credential: EmsCredential, lease: TokenLease, requestId: string): Promise<CachedToken> {
  const { fingerprint } = credential;
  ems.failing.set(fingerprint, lease.failing);
  if (lease.token) {
    await releaseQuietly(lease, requestId);
    return remember(fingerprint, lease.token, "database_after_claim", requestId);
  }

  // Past its lease another instance may take over: the request must not outlive it.
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new UpstreamUnavailableError("the token request outlasted its lease", { timedOut: true })),
    Math.max(0, lease.mustFinishBy - Date.now()),
  );
  let issued: CachedToken;
  try {
    issued = await requestToken(credential, requestId, deadline.signal);
  } catch (error) {
    try {
      if (error instanceof CredentialsRejectedError) await markCredentialFailing(fingerprint, error.detail ?? "The token request was refused (401).");
    } finally {
      await releaseQuietly(lease, requestId);
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }

  let stored: CachedToken | null = null;
  try {
    stored = await storeTokenAndRelease(lease, issued);
    if (stored) ems.failing.set(fingerprint, false);
    else emsLog("warn", "ems.token_lease_lost", { requestId, fingerprint: shortId(fingerprint) });
  } catch (error) {
    // The token works all the same; the other instances get theirs once this lease runs out.
    emsLog("warn", "ems.token_store_failed", { requestId, fingerprint: shortId(fingerprint), errorName: error instanceof Error ? error.name : "Error" });
  }
  const token = stored ?? issued;
  ems.tokens.set(fingerprint, token);
  return token;
}

/** A lease that cannot be given back (database unreachable) runs out by itself: never fail a call for it. */
async function releaseQuietly(lease: TokenLease, requestId: string): Promise<void> {
  try {
    await releaseTokenLease(lease);
  } catch (error) {
    emsLog("warn", "ems.token_lease_release_failed", { requestId, fingerprint: shortId(lease.fingerprint), errorName: error instanceof Error ? error.name : "Error" });
  }
}
