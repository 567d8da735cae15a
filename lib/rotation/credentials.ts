import "server-only";
import { DecryptionError, activeKeyId, needsReencryption, reencryptSecret } from "@/lib/crypto";
import type { PrismaClient } from "@/lib/db/prisma";
import { dropAnswersUnderOldKeys, reencryptCachedTokens, type TokenReencryptionCounts } from "@/lib/ems";
import { twoFactorAad } from "@/lib/auth/two-factor-aad";
import { reencryptHistorySecrets, type HistoryRotationCounts } from "@/lib/rotation/history";
import { credentialAad } from "@/lib/ems-access/credential-aad";

export interface RotationCounts {
  scanned: number;
  reencrypted: number;
  /** Rows changed by someone else between reading and writing: already current, or picked up next run. */
  skippedConcurrent: number;
  /** Ids that did not decrypt with any key of the ring (left untouched for credentials). */
  unreadable: string[];
}

export interface RotationReport {
  activeKeyId: string;
  credentials: RotationCounts;
  /** TOTP secrets of two-factor sign-in (TwoFactor.secretCiphertext). */
  twoFactor: RotationCounts;
  tokens: TokenReencryptionCounts;
  /** Shared listing answers under an older key: dropped, not re-encrypted (they are re-fetched on demand). */
  sharedAnswersDropped: number;
  /** Change history's header values and checkpoints, and the trackers' Slack URLs. */
  history: HistoryRotationCounts;
}

export interface RotationOptions {
  batchSize?: number;
  /** Called after each batch; the run can be interrupted at any point and started again. */
  onBatch?: (progress: { table: "ApiCredential" | "TwoFactor" | "EmsTokenCache"; scanned: number; reencrypted: number }) => void;
}

const emptyCounts = (): RotationCounts => ({ scanned: 0, reencrypted: 0, skippedConcurrent: 0, unreadable: [] });

/**
 * Re-encrypts every stored secret (ApiCredential key and secret, TwoFactor TOTP secret) and every cached EMS token under
 * the active key, batch by batch in primary-key order. Each row is written with a compare-and-set on
 * its old ciphertexts, so a credential saved meanwhile is never overwritten; rows already under the
 * active key are skipped, so an interrupted run is simply started again. Old keys must stay in the
 * ring until a run reports nothing left to do.
 *
 * A credential or TOTP secret that decrypts with no key is reported and left as it is (its owner
 * re-enters or re-enrols); a cached token that does not decrypt is cleared (the client fetches a
 * new one). Shared listing answers under an older key are dropped: they are a cache, re-fetched on
 * the next page view.
 */
export async function rotateStoredSecrets(db: PrismaClient, options: RotationOptions = {}): Promise<RotationReport> {
  const batchSize = Math.max(1, options.batchSize ?? 100);
  const keyId = activeKeyId();
  const credentials = emptyCounts();

  let cursor: string | undefined;
  for (;;) {
    const rows: { id: string; userId: string; keyCiphertext: string; secretCiphertext: string }[] = await db.apiCredential.findMany({
      where: cursor ? { id: { gt: cursor } } : undefined,
      orderBy: { id: "asc" },
      take: batchSize,
      select: { id: true, userId: true, keyCiphertext: true, secretCiphertext: true },
    });
    if (rows.length === 0) break;
    cursor = rows[rows.length - 1].id;
    for (const row of rows) {
      credentials.scanned += 1;
      if (!needsReencryption(row.keyCiphertext) && !needsReencryption(row.secretCiphertext)) continue;
      let keyCiphertext: string;
      let secretCiphertext: string;
      try {
        keyCiphertext = needsReencryption(row.keyCiphertext) ? reencryptSecret(row.keyCiphertext, credentialAad(row.userId, "key")) : row.keyCiphertext;
        secretCiphertext = needsReencryption(row.secretCiphertext) ? reencryptSecret(row.secretCiphertext, credentialAad(row.userId, "secret")) : row.secretCiphertext;
      } catch (error) {
        if (!(error instanceof DecryptionError)) throw error;
        credentials.unreadable.push(row.id);
        continue;
      }
      const written = await db.apiCredential.updateMany({
        where: { id: row.id, keyCiphertext: row.keyCiphertext, secretCiphertext: row.secretCiphertext },
        data: { keyCiphertext, secretCiphertext },
      });
      if (written.count === 1) credentials.reencrypted += 1;
      else credentials.skippedConcurrent += 1;
    }
    options.onBatch?.({ table: "ApiCredential", scanned: credentials.scanned, reencrypted: credentials.reencrypted });
  }

  const twoFactor = await rotateTwoFactorSecrets(db, batchSize, options.onBatch);

  // The EMS client owns EmsTokenCache (and its tokens' associated data): it re-encrypts them itself.
  const tokens = await reencryptCachedTokens(db, {
    batchSize,
    onBatch: (progress) => options.onBatch?.({ table: "EmsTokenCache", ...progress }),
  });
  // Shared answers are a cache of at most an hour: dropped rather than re-encrypted (lib/ems/answer-cache.ts).
  const sharedAnswersDropped = await dropAnswersUnderOldKeys(db);
  const history = await reencryptHistorySecrets(db, batchSize);
  return { activeKeyId: keyId, credentials, twoFactor, tokens, sharedAnswersDropped, history };
}

/** The TOTP secrets, the same way: batch by batch, compare-and-set on the old ciphertext. */
async function rotateTwoFactorSecrets(db: PrismaClient, batchSize: number, onBatch: RotationOptions["onBatch"]): Promise<RotationCounts> {
  const counts = emptyCounts();
  let cursor: string | undefined;
  for (;;) {
    const rows: { userId: string; secretCiphertext: string }[] = await db.twoFactor.findMany({
      where: cursor ? { userId: { gt: cursor } } : undefined,
      orderBy: { userId: "asc" },
      take: batchSize,
      select: { userId: true, secretCiphertext: true },
    });
    if (rows.length === 0) break;
    cursor = rows[rows.length - 1].userId;
    for (const row of rows) {
      counts.scanned += 1;
      if (!needsReencryption(row.secretCiphertext)) continue;
      let secretCiphertext: string;
      try {
        secretCiphertext = reencryptSecret(row.secretCiphertext, twoFactorAad(row.userId));
      } catch (error) {
        if (!(error instanceof DecryptionError)) throw error;
        counts.unreadable.push(row.userId);
        continue;
      }
      const written = await db.twoFactor.updateMany({ where: { userId: row.userId, secretCiphertext: row.secretCiphertext }, data: { secretCiphertext } });
      if (written.count === 1) counts.reencrypted += 1;
      else counts.skippedConcurrent += 1;
    }
    onBatch?.({ table: "TwoFactor", scanned: counts.scanned, reencrypted: counts.reencrypted });
  }
  return counts;
}
