import "server-only";
import { randomUUID } from "node:crypto";
import type { Actor } from "@/lib/access/actor";
import { auditByActor } from "@/lib/audit/log";
import { ciphertextKeyId, encryptSecret, keyIds } from "@/lib/crypto";
import { prisma, type TransactionClient } from "@/lib/db/prisma";
import {
  CredentialsRejectedError,
  EmsBadRequestError,
  InvalidResponseError,
  credentialFingerprint,
  dropCredentialState,
  dropSharedAnswers,
  forgetCredential,
  credentialStateIfReadable,
  getEmsClient,
  isEmsError,
  type EmsCredential,
} from "@/lib/ems";
import { FieldError, SafeError, NotFoundError } from "@/lib/errors";
import { log } from "@/lib/log";
import type { RequestContext } from "@/lib/access/guards";
import { currentRole } from "@/lib/access/guards";
import { checkEmsBaseUrl } from "@/lib/ems/destination";
import { refusalForBaseUrl } from "@/lib/ems/outbound";
import { credentialAad } from "@/lib/ems-access/credential-aad";
import { NoCredentialError, forgetCredentialReadWithSession, loadOwnCredential } from "@/lib/ems-access/credential";
import { trackNewAccount } from "@/lib/history/auto-tracking";

/** What the settings page may show about saved credentials: never the key or the secret. */
export interface CredentialSummary {
  id: string;
  baseUrl: string;
  keyLast4: string;
  savedAt: Date;
  lastVerifiedAt: Date | null;
  lastErrorAt: Date | null;
  lastError: string | null;
  /** The EMS error code of the last failed check (see credentialStatus in ./status). */
  lastErrorCode: string | null;
  /** False when a ciphertext names a key that is no longer in the ring (checked without decrypting). */
  readable: boolean;
}

export interface CredentialInput {
  baseUrl: string;
  consumerKey: string;
  consumerSecret: string;
}

function lastFour(key: string): string {
  return key.length <= 4 ? key : key.slice(-4);
}

/** The actor's own credential summary, or null. Nobody can ask for anyone else's. */
export async function getCredentialSummary(actor: Actor): Promise<CredentialSummary | null> {
  const row = await prisma.apiCredential.findUnique({
    where: { userId: actor.userId },
    select: {
      id: true,
      baseUrl: true,
      keyLast4: true,
      updatedAt: true,
      lastVerifiedAt: true,
      lastErrorAt: true,
      lastError: true,
      lastErrorCode: true,
      fingerprint: true,
      keyCiphertext: true,
      secretCiphertext: true,
    },
  });
  if (!row) return null;
  const ring = keyIds();
  const readable = [row.keyCiphertext, row.secretCiphertext].every((ciphertext) => ring.includes(ciphertextKeyId(ciphertext) ?? ""));
  let { lastErrorAt, lastError, lastErrorCode } = row;
  // The EMS client marks a credential failing when a page's call is refused; show that too.
  const state = await credentialStateIfReadable(row.fingerprint, "credentials.summary");
  if (state?.failedAt && (!lastErrorAt || state.failedAt > lastErrorAt) && (!row.lastVerifiedAt || state.failedAt > row.lastVerifiedAt)) {
    lastErrorAt = state.failedAt;
    lastError = state.failureReason ?? "The EMS API rejected these credentials.";
    lastErrorCode = new CredentialsRejectedError().code;
  }
  return {
    id: row.id,
    baseUrl: row.baseUrl,
    keyLast4: row.keyLast4,
    savedAt: row.updatedAt,
    lastVerifiedAt: row.lastVerifiedAt,
    lastErrorAt,
    lastError,
    lastErrorCode,
    readable,
  };
}

/**
 * Drops the cached token of credentials nobody uses any more (a teammate with the very same key and
 * secret shares the fingerprint, and keeps it). Returns the fingerprint to forget in memory once the
 * transaction has committed, or null.
 */
export async function dropOrphanedTokenCache(tx: TransactionClient, fingerprint: string): Promise<string | null> {
  const users = await tx.apiCredential.count({ where: { fingerprint } });
  if (users > 0) return null;
  await dropCredentialState(tx, fingerprint);
  return fingerprint;
}

/** After commit: this process's token, failure mark and rate-limit figures for an unused credential. */
export async function forgetOrphanedCredential(fingerprint: string | null): Promise<void> {
  if (fingerprint) await forgetCredential(fingerprint);
}

/** The outcome of the check before saving: what the account sees, and when it was asked. */
export interface CredentialCheck {
  webhookGroupCount: number;
  checkedAt: Date;
}

/**
 * Asks the EMS with credentials that are about to be saved: a token and a one-row listing (11
 * credits). The token is cached under the credentials' fingerprint, so once they are saved the
 * first page views use it. Refused, nothing is saved:
 * - credentials the EMS rejects: a form message with the reason;
 * - an address that answers, but not as the EMS API does (a wrong path): the base URL's error;
 * - an API that does not answer, or answers with an error or a spent rate limit: an error on the
 *   `saveAnyway` field, which the form offers as "Save anyway" (it may be down for a moment).
 * A failed check leaves no token state behind for credentials nobody has saved.
 */
async function checkBeforeSaving(credential: EmsCredential, requestId: string): Promise<CredentialCheck> {
  try {
    const outcome = await getEmsClient(credential).testConnection({ requestId });
    return { webhookGroupCount: outcome.webhookGroupCount, checkedAt: new Date() };
  } catch (error) {
    const orphaned = await prisma.$transaction((tx) => dropOrphanedTokenCache(tx, credential.fingerprint));
    await forgetOrphanedCredential(orphaned);
    if (error instanceof CredentialsRejectedError) {
      throw new SafeError("The EMS API rejected this consumer key and secret, so they were not saved. Check both and try again.", "credentials_rejected");
    }
    if (error instanceof EmsBadRequestError || error instanceof InvalidResponseError) {
      throw new FieldError("baseUrl", `${error.userMessage} Is this the address before /api/v1? Nothing was saved.`, "invalid_base_url");
    }
    if (isEmsError(error)) throw new FieldError("saveAnyway", `${error.userMessage} Nothing was saved yet: save them without the check, or try again.`, "check_failed");
    log.error({ event: "credential.check_failed", requestId, err: error }, "the check before saving failed unexpectedly");
    throw new FieldError("saveAnyway", "The check failed for an unexpected reason. Nothing was saved yet: save them without the check, or try again.", "check_failed");
  }
}

/**
 * Saves (or replaces) the actor's own credentials, encrypted. The base URL rules are checked again
 * here, its host resolved, and an address the destination policy refuses is the base URL's error
 * (lib/ems/destination.ts; every call checks again before it connects). With `check`, the EMS is
 * asked with them first (checkBeforeSaving) and they are saved as verified, or not at all.
 */
export async function saveCredential(
  actor: Actor,
  input: CredentialInput,
  context: RequestContext = {},
  options: { check?: boolean; requestId?: string } = {},
): Promise<CredentialSummary & { check: CredentialCheck | null }> {
  const checked = checkEmsBaseUrl(input.baseUrl);
  if (!checked.ok) throw new FieldError("baseUrl", checked.message, "invalid_base_url");
  const consumerKey = input.consumerKey.trim();
  const consumerSecret = input.consumerSecret;
  if (!consumerKey) throw new SafeError("Enter the consumer key.", "invalid_key");
  if (!consumerSecret) throw new SafeError("Enter the consumer secret.", "invalid_secret");
  const refusal = await refusalForBaseUrl(checked.baseUrl);
  if (refusal) {
    log.warn({ event: "credential.base_url_refused", userId: actor.userId, origin: new URL(checked.baseUrl).origin, reason: refusal.reason }, "base URL refused");
    throw new FieldError("baseUrl", refusal.message, "invalid_base_url");
  }

  const fingerprint = credentialFingerprint(checked.baseUrl, consumerKey, consumerSecret);
  const check = options.check ? await checkBeforeSaving({ baseUrl: checked.baseUrl, consumerKey, consumerSecret, fingerprint }, options.requestId ?? randomUUID()) : null;
  const data = {
    baseUrl: checked.baseUrl,
    keyCiphertext: encryptSecret(consumerKey, credentialAad(actor.userId, "key")),
    secretCiphertext: encryptSecret(consumerSecret, credentialAad(actor.userId, "secret")),
    keyLast4: lastFour(consumerKey),
    fingerprint,
    lastVerifiedAt: check?.checkedAt ?? null,
    lastErrorAt: null,
    lastError: null,
    lastErrorCode: null,
  };

  let orphaned: string | null = null;
  const saved = await prisma.$transaction(async (tx) => {
    await currentRole(tx, actor);
    const previous = await tx.apiCredential.findUnique({ where: { userId: actor.userId }, select: { fingerprint: true } });
    const row = await tx.apiCredential.upsert({
      where: { userId: actor.userId },
      create: { userId: actor.userId, ...data },
      update: data,
    });
    // The team's shared answers of the replaced credential go, even when the same key is saved again.
    if (previous) await dropSharedAnswers(tx, previous.fingerprint, actor.teamId);
    if (previous && previous.fingerprint !== row.fingerprint) orphaned = await dropOrphanedTokenCache(tx, previous.fingerprint);
    await auditByActor(
      actor,
      {
        action: "credential.saved",
        target: `credential:${row.id}`,
        ip: context.ip ?? null,
        metadata: { baseUrl: row.baseUrl, keyLast4: row.keyLast4, replaced: previous !== null, checked: check !== null },
      },
      tx,
    );
    return row;
  });
  // This request's session read the old row (lib/auth/session.ts): what renders after reads the new one.
  forgetCredentialReadWithSession(actor);
  await forgetOrphanedCredential(orphaned);
  if (check) await trackNewAccount(actor, check.webhookGroupCount);
  return {
    id: saved.id,
    baseUrl: saved.baseUrl,
    keyLast4: saved.keyLast4,
    savedAt: saved.updatedAt,
    lastVerifiedAt: saved.lastVerifiedAt,
    lastErrorAt: null,
    lastError: null,
    lastErrorCode: null,
    readable: true,
    check,
  };
}

/**
 * Deletes the actor's own credentials. `credentialId` is what the form showed; an id that is not the
 * actor's (another member's, crafted) is refused and nothing is deleted.
 */
export async function deleteCredential(actor: Actor, input: { credentialId: string }, context: RequestContext = {}): Promise<void> {
  const orphaned = await prisma.$transaction(async (tx) => {
    await currentRole(tx, actor);
    const row = await tx.apiCredential.findFirst({
      where: { id: input.credentialId, userId: actor.userId },
      select: { id: true, fingerprint: true, baseUrl: true, keyLast4: true },
    });
    if (!row) throw new NotFoundError("Those credentials do not exist, or they are not yours.");
    await tx.apiCredential.delete({ where: { id: row.id } });
    await dropSharedAnswers(tx, row.fingerprint, actor.teamId);
    const unused = await dropOrphanedTokenCache(tx, row.fingerprint);
    await auditByActor(
      actor,
      {
        action: "credential.deleted",
        target: `credential:${row.id}`,
        ip: context.ip ?? null,
        metadata: { baseUrl: row.baseUrl, keyLast4: row.keyLast4 },
      },
      tx,
    );
    return unused;
  });
  forgetCredentialReadWithSession(actor);
  await forgetOrphanedCredential(orphaned);
}

export type ConnectionTestResult =
  { ok: true; expiresAt: Date; webhookGroupCount: number; testedAt: Date } | { ok: false; message: string; code: string; testedAt: Date };

/**
 * Gets a token with the actor's credentials and counts the webhook groups the account sees. The
 * outcome is recorded on the credential (verified time, or the error in words) and in the audit log.
 */
export async function testCredential(actor: Actor, context: RequestContext = {}): Promise<ConnectionTestResult> {
  const credential = await loadOwnCredential(actor);
  if (!credential) throw new NoCredentialError();
  let result: ConnectionTestResult;
  // One id for the EMS client's log lines of this test and for an unexpected failure logged here.
  const requestId = randomUUID();
  try {
    const { id: _id, ...emsCredential } = credential;
    void _id;
    const outcome = await getEmsClient(emsCredential).testConnection({ requestId });
    result = { ok: true, expiresAt: outcome.expiresAt, webhookGroupCount: outcome.webhookGroupCount, testedAt: new Date() };
  } catch (error) {
    if (!isEmsError(error)) {
      log.error({ event: "credential.test_failed", requestId, credentialId: credential.id, err: error }, "connection test failed unexpectedly");
    }
    // Taken after the call: the EMS client's own failure mark (EmsTokenCache) is then older than this.
    result = isEmsError(error)
      ? { ok: false, message: error.userMessage, code: error.code, testedAt: new Date() }
      : { ok: false, message: "The connection test failed for an unexpected reason. Please try again.", code: "unexpected", testedAt: new Date() };
  }
  const { testedAt } = result;
  await prisma.$transaction(async (tx) => {
    // Only the row tested: if the credentials were replaced meanwhile, this outcome is not theirs.
    await tx.apiCredential.updateMany({
      where: { id: credential.id, fingerprint: credential.fingerprint },
      data: result.ok
        ? { lastVerifiedAt: testedAt, lastErrorAt: null, lastError: null, lastErrorCode: null }
        : { lastErrorAt: testedAt, lastError: result.message, lastErrorCode: result.code },
    });
    await auditByActor(
      actor,
      {
        action: "credential.tested",
        target: `credential:${credential.id}`,
        ip: context.ip ?? null,
        metadata: result.ok ? { ok: true, webhookGroupCount: result.webhookGroupCount } : { ok: false, error: result.message },
      },
      tx,
    );
  });
  // A credential that works reads an account: the team tracks its changes from now on, if it did not.
  if (result.ok) await trackNewAccount(actor, result.webhookGroupCount);
  return result;
}
