import "server-only";
import { prisma } from "@/lib/db/prisma";
import { emsConfig } from "./config";
import { emsLog, shortId } from "./log";
import type { RateLimit } from "./rate-limit";
import { ems } from "./state";

/**
 * The budget plan of one credential's rate limit (docs/ems-api.md §5: 2,000 credits per 10 minutes).
 *
 * - Page views ("page") come first: they spend whatever is left.
 * - Everything else is background work ("export"; "sync" and "coverage" for the history and
 *   coverage features; "write" for changes of the setup, docs/ems-api.md §8): it spends only what is left above a reserve (EMS_BACKGROUND_RESERVE_PERCENT,
 *   default 30 % of the window), and when the next call would dip into it, it waits for the window
 *   to reset (the `X-Rate-Limit-Reset` of the last answer) instead of failing.
 * - Every listing call is recorded by team, credential and kind, per minute (EmsBudgetUsage), so
 *   that the settings page can show where the last hour's credits went.
 *
 * A new kind of work plugs in by name: add it to BUDGET_KINDS with its label, and pass
 * `{ kind, teamId }` as the call's `budget` option (lib/ems/client.ts).
 */

export const BUDGET_KINDS = ["page", "export", "sync", "coverage", "write"] as const;
export type BudgetKind = (typeof BUDGET_KINDS)[number];

export const BUDGET_KIND_LABELS: Record<BudgetKind, string> = {
  page: "Page views",
  export: "Exports",
  sync: "History syncs",
  coverage: "Coverage refreshes",
  write: "Changes to the setup",
};

/** Who spends: the team (for the usage record) and the kind of work (for the reserve). */
export interface BudgetSpender {
  kind: BudgetKind;
  /** The team the call is made for; calls without one (scripts, tests) are not recorded. */
  teamId?: string;
}

/** Page views spend freely; every other kind keeps out of the reserve. */
export function isBackground(kind: BudgetKind): boolean {
  return kind !== "page";
}

/** Credits kept for page views in a window of `limit` credits. */
export function reservedCredits(limit: number): number {
  return Math.ceil(limit * emsConfig().backgroundReserveShare);
}

/**
 * How long a call of `kind` costing `cost` must wait before it is sent, by the last figures known
 * for the credential: 0 when it may go now. Page views never wait here (a sure 429 is the client's
 * own check); background work waits for the reset when the call would dip into the reserve.
 */
export function budgetWaitMs(kind: BudgetKind, budget: RateLimit | null, cost: number, now = Date.now()): number {
  if (!isBackground(kind) || !budget) return 0;
  const untilReset = budget.resetAt.getTime() - now;
  if (untilReset <= 0) return 0;
  return budget.remaining - cost >= reservedCredits(budget.limit) ? 0 : untilReset;
}

/** The share of the window left is under EMS_LOW_BUDGET_PERCENT (and the window has not reset). */
export function isBudgetLow(budget: { limit: number; remaining: number; resetAt: Date } | null, now = Date.now()): boolean {
  if (!budget || budget.limit <= 0 || budget.resetAt.getTime() <= now) return false;
  return budget.remaining < budget.limit * emsConfig().lowBudgetShare;
}

/** Under this share of the window left (and above the low mark), answers are shared four times longer. */
const HALF_SPENT_SHARE = 0.5;

/**
 * How long identical page views share one answer, given the budget left (page views pace
 * themselves too): the configured window (EMS_SHARED_ANSWER_SECONDS) while at least half of the
 * window's credits are left, four times as long under half, and until the window resets under the
 * low mark (EMS_LOW_BUDGET_PERCENT). The page says how old its rows are, and a refresh still asks
 * the API; a query never asked before still costs its call.
 */
export function sharingWindowMs(baseMs: number, budget: RateLimit | null, now = Date.now()): number {
  if (baseMs <= 0 || !budget || budget.limit <= 0) return baseMs;
  const untilReset = budget.resetAt.getTime() - now;
  if (untilReset <= 0) return baseMs;
  const share = budget.remaining / budget.limit;
  if (share < emsConfig().lowBudgetShare) return Math.max(baseMs * 4, untilReset);
  if (share < HALF_SPENT_SHARE) return baseMs * 4;
  return baseMs;
}

// Usage records: summed in memory and written at most once a second, so that a page view never
// waits for this write (the same pattern as the rate-limit figures, lib/ems/rate-limit.ts).

const FLUSH_INTERVAL_MS = 1000;

function minuteOf(epochMs: number): Date {
  return new Date(Math.floor(epochMs / 60_000) * 60_000);
}

/** Records `credits` spent by one call of `spender` with the credential. */
export function recordSpend(fingerprint: string, spender: BudgetSpender | undefined, credits: number, at = Date.now()): void {
  if (!spender?.teamId) return;
  const minute = minuteOf(at);
  const key = JSON.stringify([spender.teamId, fingerprint, spender.kind, minute.getTime()]);
  const pending = ems.usage.pending.get(key) ?? { teamId: spender.teamId, fingerprint, kind: spender.kind, minute, calls: 0, credits: 0 };
  pending.calls += 1;
  pending.credits += credits;
  ems.usage.pending.set(key, pending);
  if (ems.usage.timer) return;
  ems.usage.timer = setTimeout(() => void flushBudgetUsage(), FLUSH_INTERVAL_MS);
  ems.usage.timer.unref?.();
}

/** Writes every pending usage record now and waits for it (tests, scripts, the settings page). */
export async function flushBudgetUsage(): Promise<void> {
  if (ems.usage.timer) clearTimeout(ems.usage.timer);
  ems.usage.timer = null;
  const batch = [...ems.usage.pending.values()];
  ems.usage.pending.clear();
  const writes = batch.map((row) =>
    prisma.$executeRaw`
      INSERT INTO "EmsBudgetUsage" ("teamId", "fingerprint", "kind", "minute", "calls", "credits")
      VALUES (${row.teamId}, ${row.fingerprint}, ${row.kind}, ${row.minute}, ${row.calls}, ${row.credits})
      ON CONFLICT ("teamId", "fingerprint", "kind", "minute") DO UPDATE
        SET "calls" = "EmsBudgetUsage"."calls" + excluded."calls", "credits" = "EmsBudgetUsage"."credits" + excluded."credits"`.then(
      () => undefined,
      (error: unknown) => {
        // A team deleted meanwhile (foreign key) or the database away: a usage figure is not worth an error.
        emsLog("warn", "ems.budget_usage_write_failed", { fingerprint: shortId(row.fingerprint), errorName: error instanceof Error ? error.name : "Error" });
      },
    ),
  );
  const all = Promise.all(writes).then(() => undefined);
  ems.pendingWrites.add(all);
  void all.finally(() => ems.pendingWrites.delete(all));
  await all;
}

export interface KindUsage {
  kind: BudgetKind;
  label: string;
  calls: number;
  credits: number;
}

/**
 * What one team spent with one credential over the last `minutes` (default 60), by kind, in
 * BUDGET_KINDS order; kinds with nothing spent are included with zeros. Another team using the
 * same key is not counted (nor shown).
 */
export async function usageByKind(teamId: string, fingerprint: string, minutes = 60): Promise<KindUsage[]> {
  const since = minuteOf(Date.now() - (minutes - 1) * 60_000);
  const rows = await prisma.emsBudgetUsage.groupBy({
    by: ["kind"],
    where: { teamId, fingerprint, minute: { gte: since } },
    _sum: { calls: true, credits: true },
  });
  const byKind = new Map(rows.map((row) => [row.kind, row._sum]));
  return BUDGET_KINDS.map((kind) => ({ kind, label: BUDGET_KIND_LABELS[kind], calls: byKind.get(kind)?.calls ?? 0, credits: byKind.get(kind)?.credits ?? 0 }));
}
