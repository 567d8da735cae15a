import "server-only";
import { prisma } from "@/lib/db/prisma";
import { credentialStateIfReadable, flushBudgetUsage } from "@/lib/ems";
import { LISTING_COST } from "@/lib/ems/config";

/**
 * Change history's share of a credential's rate limit: its syncs never spend more than
 * HISTORY_SYNC_BUDGET_PERCENT (default 10 %) of the limit in any rate-limit window, however many
 * teams and trackers read the account with that credential.
 *
 * Before each page a sync asks `beforePage()`: the credits that syncs of this credential spent in
 * the last window (EmsBudgetUsage, kind "sync", every team, flushed first so this sync's own calls
 * count) plus the page's 10 must fit the share. When they do not, the sync stops (PacedOutError)
 * and says when the share frees up; the pages it read are shared answers (lib/ems/answer-cache.ts),
 * so the next run reads them from the database without spending again and goes on from there.
 */

/** The EMS's window: 2,000 credits per 10 minutes (docs/ems-api.md §5). */
export const RATE_WINDOW_MS = 10 * 60_000;
export const DEFAULT_RATE_LIMIT = 2_000;

export class PacedOutError extends Error {
  constructor(
    readonly spent: number,
    readonly share: number,
    readonly limit: number,
    /** When enough of the share is free again for the next page. */
    readonly resumeAt: Date,
  ) {
    super(`history syncs spent ${spent} of their ${share}-credit share of ${limit}`);
    this.name = "PacedOutError";
  }
}

export interface PacerOptions {
  fingerprint: string;
  /** Share of the limit, 0..1. */
  share: number;
  /** Tests and the bench: another window length. */
  windowMs?: number;
  now?: () => number;
}

const MINUTE_MS = 60_000;

/** Sync credits spent with the credential per minute bucket, over the window (and the bucket it starts in). */
async function spentInWindow(fingerprint: string, windowMs: number, now: number): Promise<{ total: number; oldestMinute: number | null }> {
  // A bucket that started before the window but ends inside it may hold calls of the window: counted.
  const since = new Date(Math.floor((now - windowMs) / MINUTE_MS) * MINUTE_MS);
  const rows = await prisma.emsBudgetUsage.groupBy({
    by: ["minute"],
    where: { fingerprint, kind: "sync", minute: { gte: since } },
    _sum: { credits: true },
    orderBy: { minute: "asc" },
  });
  const total = rows.reduce((sum, row) => sum + (row._sum.credits ?? 0), 0);
  return { total, oldestMinute: rows.length > 0 ? rows[0]!.minute.getTime() : null };
}

export interface Pacer {
  beforePage: () => Promise<void>;
  /** The share in credits and the limit it is taken from (for the sync's message). */
  readonly share: number;
  readonly limit: number;
}

export async function createPacer(options: PacerOptions): Promise<Pacer> {
  const windowMs = options.windowMs ?? RATE_WINDOW_MS;
  const now = options.now ?? Date.now;
  const limit = (await credentialStateIfReadable(options.fingerprint, "history.pacing"))?.rateLimit?.limit ?? DEFAULT_RATE_LIMIT;
  const share = Math.floor(limit * options.share);
  return {
    share,
    limit,
    async beforePage() {
      await flushBudgetUsage();
      const at = now();
      const spent = await spentInWindow(options.fingerprint, windowMs, at);
      if (spent.total + LISTING_COST <= share) return;
      // The oldest bucket leaves the window one window after it ends.
      const resumeAt = new Date((spent.oldestMinute ?? at) + MINUTE_MS + windowMs);
      throw new PacedOutError(spent.total, share, limit, resumeAt);
    },
  };
}
