import "server-only";
import { DecryptionError, needsReencryption, reencryptSecret } from "@/lib/crypto";
import type { TransactionClient } from "@/lib/db/prisma";
import { tokenCacheAad } from "./token-cache";

/** Key rotation's part in EmsTokenCache (the rest of a rotation run is lib/rotation/credentials.ts). */

export interface TokenReencryptionCounts {
  scanned: number;
  reencrypted: number;
  /** Tokens replaced or dropped by the client between reading and writing: nothing to do for them. */
  skippedConcurrent: number;
  /** Fingerprints whose token decrypted with no key of the ring: cleared (the client fetches a new one). */
  unreadable: string[];
  cleared: number;
}

export interface TokenReencryptionOptions {
  batchSize?: number;
  /** Called after each batch; the run can be interrupted at any point and started again. */
  onBatch?: (progress: { scanned: number; reencrypted: number }) => void;
}

/**
 * Re-encrypts every cached token under the active key, batch by batch in fingerprint order. Each row
 * is written only while it still holds the ciphertext read (the client may replace or drop a token
 * at any moment); a token no key decrypts is cleared, since a new one costs one token request.
 */
export async function reencryptCachedTokens(db: TransactionClient, options: TokenReencryptionOptions = {}): Promise<TokenReencryptionCounts> {
  const batchSize = Math.max(1, options.batchSize ?? 100);
  const counts: TokenReencryptionCounts = { scanned: 0, reencrypted: 0, skippedConcurrent: 0, unreadable: [], cleared: 0 };
  let cursor: string | undefined;
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
      counts.scanned += 1;
      const old = row.tokenCiphertext!;
      if (!needsReencryption(old)) continue;
      let tokenCiphertext: string | null;
      try {
        tokenCiphertext = reencryptSecret(old, tokenCacheAad(row.fingerprint));
      } catch (error) {
        if (!(error instanceof DecryptionError)) throw error;
        counts.unreadable.push(row.fingerprint);
        tokenCiphertext = null;
      }
      const written = await db.emsTokenCache.updateMany({
        where: { fingerprint: row.fingerprint, tokenCiphertext: old },
        data: tokenCiphertext === null ? { tokenCiphertext: null, expiresAt: null, obtainedAt: null } : { tokenCiphertext },
      });
      if (written.count !== 1) counts.skippedConcurrent += 1;
      else if (tokenCiphertext === null) counts.cleared += 1;
      else counts.reencrypted += 1;
    }
    options.onBatch?.({ scanned: counts.scanned, reencrypted: counts.reencrypted });
  }
  return counts;
}
