import "server-only";
import { randomUUID } from "node:crypto";
import { prisma } from "@/lib/db/prisma";
import { log } from "@/lib/log";

/**
 * How many exports one person runs at once, across every instance: one ExportSlot row per export
 * under way. Taking a slot is one transaction that first takes an advisory lock on the person (so
 * two instances cannot both count one slot free and both take it), then drops the person's expired
 * rows, counts the live ones and inserts a new one only if there is room. Times are the database's.
 *
 * A slot is released (its row deleted) when the export ends, fails, is cancelled or runs out of
 * time; a slot whose instance died expires after `holdSeconds` (the export's own limit plus a
 * margin), so it never blocks the person for longer than one export could have run.
 */

export interface ExportSlot {
  readonly id: string;
  /** Deletes the row; safe to call more than once, never rejects (a row left behind expires). */
  release(): Promise<void>;
}

export async function acquireExportSlot(userId: string, { max, holdSeconds }: { max: number; holdSeconds: number }): Promise<ExportSlot | null> {
  const id = randomUUID();
  const [, taken] = await prisma.$transaction([
    prisma.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`export-slots:${userId}`}, 0))`,
    prisma.$queryRaw<{ id: string }[]>`
      WITH expired AS (
        DELETE FROM "ExportSlot" WHERE "userId" = ${userId} AND "expiresAt" <= (now() AT TIME ZONE 'UTC')
      )
      INSERT INTO "ExportSlot" ("id", "userId", "startedAt", "expiresAt")
      SELECT ${id}, ${userId}, (now() AT TIME ZONE 'UTC'), (now() AT TIME ZONE 'UTC') + ${Math.ceil(holdSeconds)}::integer * interval '1 second'
      WHERE (SELECT count(*) FROM "ExportSlot" WHERE "userId" = ${userId} AND "expiresAt" > (now() AT TIME ZONE 'UTC')) < ${max}::integer
      RETURNING "id"`,
  ]);
  if (taken.length === 0) return null;
  let released: Promise<void> | null = null;
  return {
    id,
    release: () =>
      (released ??= prisma.exportSlot.deleteMany({ where: { id } }).then(
        () => undefined,
        (error: unknown) => log.warn({ event: "export.slot_release_failed", slotId: id, err: error }, "export slot not released; it expires"),
      )),
  };
}

/** The person's exports under way right now (tests, and the message of a refusal). */
export async function runningExports(userId: string): Promise<number> {
  const [{ count }] = await prisma.$queryRaw<{ count: number }[]>`
    SELECT count(*)::integer AS count FROM "ExportSlot" WHERE "userId" = ${userId} AND "expiresAt" > (now() AT TIME ZONE 'UTC')`;
  return count;
}
