import "server-only";
import { prisma } from "@/lib/db/prisma";
import { syncTracker, type SyncOptions, type SyncTrigger } from "./sync";

/** Trackers looked at per tick; the rest wait for the next one (a tick is a minute). */
const MAX_PER_TICK = 50;

export interface TickResult {
  due: number;
  synced: number;
  byStatus: Record<string, number>;
  /** The syncs that stored a snapshot (status ok): what runs after a sync (drift from applied plans) looks at these. */
  syncIds: string[];
}

/**
 * Syncs every active tracker whose next run is due, oldest due first, until done, stopped or past
 * the deadline (a serverless function's limit). A tracker another instance is syncing is skipped
 * (`busy`): its claim says so.
 */
export async function syncDueTrackers(
  options: { signal?: AbortSignal; deadline?: number; trigger?: SyncTrigger; afterSync?: SyncOptions["afterSync"] } = {},
): Promise<TickResult> {
  const due = await prisma.changeTracker.findMany({
    where: { status: "active", nextRunAt: { lte: new Date() } },
    orderBy: { nextRunAt: "asc" },
    take: MAX_PER_TICK,
    select: { id: true },
  });
  const byStatus: Record<string, number> = {};
  let synced = 0;
  const syncIds: string[] = [];
  for (const { id } of due) {
    if (options.signal?.aborted || (options.deadline && Date.now() > options.deadline)) break;
    const outcome = await syncTracker(id, { trigger: options.trigger ?? "schedule", signal: options.signal, deadline: options.deadline, afterSync: options.afterSync });
    byStatus[outcome.status] = (byStatus[outcome.status] ?? 0) + 1;
    if (outcome.status !== "busy") synced += 1;
    if (outcome.status === "ok" && !outcome.baseline) syncIds.push(outcome.syncId);
  }
  return { due: due.length, synced, byStatus, syncIds };
}
