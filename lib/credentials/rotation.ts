import "server-only";
import { DecryptionError, activeKeyId, needsReencryption, reencryptSecret } from "@/lib/crypto";
import type { PrismaClient } from "@/lib/db/prisma";
import { tokenCacheAad } from "@/lib/ems";
import { credentialAad } from "./aad";

// The EMS client owns the token cache's associated data; rotation uses the very same function.
export { tokenCacheAad };

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
  tokens: RotationCounts & { cleared: number };
}

export interface RotationOptions {
  batchSize?: number;
  /** Called after each batch; the run can be interrupted at any point and started again. */
  onBatch?: (progress: { table: "ApiCredential" | "EmsTokenCache"; scanned: number; reencrypted: number }) => void;
}

const emptyCounts = (): RotationCounts => ({ scanned: 0, reencrypted: 0, skippedConcurrent: 0, unreadable: [] });

/**
 * Re-encrypts every stored secret (ApiCredential key and secret) and every cached EMS token under
 * the active key, batch by batch in primary-key order. Each row is written with a compare-and-set on
 * its old ciphertexts, so a credential saved meanwhile is never overwritten; rows already under the
 * active key are skipped, so an interrupted run is simply started again. Old keys must stay in the
 * ring until a run reports nothing left to do.
 *
 * A credential that decrypts with no key is reported and left as it is (its owner re-enters it); a
 * cached token that does not decrypt is cleared (the client fetches a new one).
 */
export async function rotateStoredSecrets(db: PrismaClient, options: RotationOptions = {}): Promise<RotationReport> {
  const batchSize = Math.max(1, options.batchSize ?? 100);
  const report: RotationReport = { activeKeyId: activeKeyId(), credentials: emptyCounts(), tokens: { ...emptyCounts(), cleared: 0 } };

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
      report.credentials.scanned += 1;
      if (!needsReencryption(row.keyCiphertext) && !needsReencryption(row.secretCiphertext)) continue;
      let keyCiphertext: string;
      let secretCiphertext: string;
      try {
        keyCiphertext = needsReencryption(row.keyCiphertext) ? reencryptSecret(row.keyCiphertext, credentialAad(row.userId, "key")) : row.keyCiphertext;
        secretCiphertext = needsReencryption(row.secretCiphertext)
          ? reencryptSecret(row.secretCiphertext, credentialAad(row.userId, "secret"))
          : row.secretCiphertext;
      } catch (error) {
        if (!(error instanceof DecryptionError)) throw error;
        report.credentials.unreadable.push(row.id);
        continue;
      }
      const written = await db.apiCredential.updateMany({
        where: { id: row.id, keyCiphertext: row.keyCiphertext, secretCiphertext: row.secretCiphertext },
        data: { keyCiphertext, secretCiphertext },
      });
      if (written.count === 1) report.credentials.reencrypted += 1;
      else report.credentials.skippedConcurrent += 1;
    }
    options.onBatch?.({ table: "ApiCredential", scanned: report.credentials.scanned, reencrypted: report.credentials.reencrypted });
  }

  cursor = undefined;
  for (;;) {
    const rows: { fingerprint: string; tokenCiphertext: string | null }[] = await db.emsTokenCache.findMany({
      where: { tokenCiphertext: { not: null }, ...(cursor ? { fingerprint: { gt: cursor } } : {}) },
      orderBy: { fingerprint: "asc" },
      take: batchSize,
      select: { fingerprint: true, tokenCiphertext: true },
    });
    if (rows.length === 0) break;
    cursor = rows[rows.length - 1].fingerprint;
    for (const row of rows) {
      report.tokens.scanned += 1;
      const old = row.tokenCiphertext!;
      if (!needsReencryption(old)) continue;
      let tokenCiphertext: string | null;
      try {
        tokenCiphertext = reencryptSecret(old, tokenCacheAad(row.fingerprint));
      } catch (error) {
        if (!(error instanceof DecryptionError)) throw error;
        report.tokens.unreadable.push(row.fingerprint);
        tokenCiphertext = null;
      }
      const written = await db.emsTokenCache.updateMany({
        where: { fingerprint: row.fingerprint, tokenCiphertext: old },
        data: tokenCiphertext === null ? { tokenCiphertext: null, expiresAt: null, obtainedAt: null } : { tokenCiphertext },
      });
      if (written.count !== 1) report.tokens.skippedConcurrent += 1;
      else if (tokenCiphertext === null) report.tokens.cleared += 1;
      else report.tokens.reencrypted += 1;
    }
    options.onBatch?.({ table: "EmsTokenCache", scanned: report.tokens.scanned, reencrypted: report.tokens.reencrypted });
  }
  return report;
}
