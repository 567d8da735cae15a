import "server-only";
import { DecryptionError, needsReencryption, reencryptSecret } from "@/lib/crypto";
import type { PrismaClient } from "@/lib/db/prisma";
import { slackUrlAad } from "@/lib/alerts/slack-url";
import type { RecordKind } from "@/lib/history/records";
import { changeAad, checkpointAad, recordAad } from "@/lib/history/store";

export interface HistoryRotationCounts {
  scanned: number;
  reencrypted: number;
  /** Rows that did not decrypt with any key: left as they are (the next sync rewrites a record). */
  unreadable: number;
}

/**
 * Re-encrypts change history's secrets under the active key (npm run keys:rotate, through
 * lib/rotation/credentials.ts): tracked records' and changes' header values, checkpoints, and the
 * trackers' Slack URLs. Batch by batch, each row written with a compare-and-set on its old
 * ciphertext, so a sync writing meanwhile is never overwritten and a stopped run is started again.
 */
export async function reencryptHistorySecrets(db: PrismaClient, batchSize: number): Promise<HistoryRotationCounts> {
  const counts: HistoryRotationCounts = { scanned: 0, reencrypted: 0, unreadable: 0 };
  const rewrite = async (ciphertext: string, aad: string, write: (next: string) => Promise<{ count: number }>) => {
    counts.scanned += 1;
    if (!needsReencryption(ciphertext)) return;
    let next: string;
    try {
      next = reencryptSecret(ciphertext, aad);
    } catch (error) {
      if (!(error instanceof DecryptionError)) throw error;
      counts.unreadable += 1;
      return;
    }
    if ((await write(next)).count === 1) counts.reencrypted += 1;
  };

  for (let cursor: string | undefined; ;) {
    const rows = await db.setupChange.findMany({
      where: { secretCiphertext: { not: null }, ...(cursor ? { id: { gt: cursor } } : {}) },
      orderBy: { id: "asc" },
      take: batchSize,
      select: { id: true, secretCiphertext: true },
    });
    if (rows.length === 0) break;
    cursor = rows.at(-1)!.id;
    for (const row of rows)
      await rewrite(row.secretCiphertext!, changeAad(row.id), (next) =>
        db.setupChange.updateMany({ where: { id: row.id, secretCiphertext: row.secretCiphertext }, data: { secretCiphertext: next } }),
      );
  }
  for (let cursor: string | undefined; ;) {
    const rows = await db.setupCheckpoint.findMany({
      where: cursor ? { id: { gt: cursor } } : undefined,
      orderBy: { id: "asc" },
      take: batchSize,
      select: { id: true, ciphertext: true },
    });
    if (rows.length === 0) break;
    cursor = rows.at(-1)!.id;
    for (const row of rows)
      await rewrite(row.ciphertext, checkpointAad(row.id), (next) =>
        db.setupCheckpoint.updateMany({ where: { id: row.id, ciphertext: row.ciphertext }, data: { ciphertext: next } }),
      );
  }
  for (const tracker of await db.changeTracker.findMany({ select: { id: true, slackUrlCiphertext: true } })) {
    if (tracker.slackUrlCiphertext) {
      await rewrite(tracker.slackUrlCiphertext, slackUrlAad(tracker.id), (next) =>
        db.changeTracker.updateMany({ where: { id: tracker.id, slackUrlCiphertext: tracker.slackUrlCiphertext }, data: { slackUrlCiphertext: next } }),
      );
    }
    for (let offset = 0; ; offset += batchSize) {
      const rows = await db.trackedRecord.findMany({
        where: { trackerId: tracker.id, secretCiphertext: { not: null } },
        orderBy: [{ kind: "asc" }, { recordId: "asc" }],
        skip: offset,
        take: batchSize,
        select: { kind: true, recordId: true, secretCiphertext: true },
      });
      if (rows.length === 0) break;
      for (const row of rows) {
        await rewrite(row.secretCiphertext!, recordAad(tracker.id, row.kind as RecordKind, row.recordId), (next) =>
          db.trackedRecord.updateMany({
            where: { trackerId: tracker.id, kind: row.kind, recordId: row.recordId, secretCiphertext: row.secretCiphertext },
            data: { secretCiphertext: next },
          }),
        );
      }
    }
  }
  return counts;
}
