import "server-only";
import { DecryptionError, activeKeyId, needsReencryption, reencryptSecret } from "@/lib/crypto";
import type { PrismaClient } from "@/lib/db/prisma";
import { reencryptCachedTokens, type TokenReencryptionCounts } from "@/lib/ems";
import { credentialAad } from "./aad";

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
  tokens: TokenReencryptionCounts;
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
        secretCiphertext = needsReencryption(row.secretCiphertext)
          ? reencryptSecret(row.secretCiphertext, credentialAad(row.userId, "secret"))
          : row.secretCiphertext;
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

  // The EMS client owns EmsTokenCache (and its tokens' associated data): it re-encrypts them itself.
  const tokens = await reencryptCachedTokens(db, {
    batchSize,
    onBatch: (progress) => options.onBatch?.({ table: "EmsTokenCache", ...progress }),
  });
  return { activeKeyId: keyId, credentials, tokens };
}
