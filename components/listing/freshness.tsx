import { formatSeconds } from "@/lib/duration";
import { LISTING_COST, SINGLE_CALL_COST } from "@/lib/ems/config";
import { formatCount } from "@/lib/listing/format";
import type { Freshness, RateBudget } from "@/lib/ems-access/shared-read";
import { RefreshButton } from "./refresh-button";
import { DataStatus, formatAge } from "./data-status";

export { formatAge } from "./data-status";

/** The listing's or a group's data status for the toolbar (components/listing/data-status.tsx). */
export function DataAge({
  freshness,
  budget,
  refresh,
}: {
  freshness: Freshness;
  budget: RateBudget | null;
  /** Null: no refresh offered (a list filtered by a Health check: its rows are a page of ids the refresh could not name). */
  refresh: { resource: string; search: string; groupId?: number } | null;
}) {
  return (
    <DataStatus
      age={freshness.windowSeconds > 0 ? { seconds: freshness.ageSeconds, stale: freshness.stale, windowSeconds: freshness.windowSeconds } : null}
      budget={budget ? { limit: budget.limit, remaining: budget.remaining, resetInSeconds: budget.resetInSeconds, low: budget.low } : null}
      // What a refresh spends: a listing, or a group page's single-record read.
      refresh={refresh ? <RefreshButton {...refresh} cost={refresh.groupId === undefined ? LISTING_COST : SINGLE_CALL_COST} /> : undefined}
    />
  );
}

/** A 429 while an earlier answer was stored: that answer is on screen, and this says so. */
export function StaleNotice({ freshness, budget }: { freshness: Freshness; budget: RateBudget | null }) {
  if (!freshness.stale) return null;
  const reset = budget && budget.resetInSeconds > 0 ? ` It resets in ${formatSeconds(budget.resetInSeconds)}.` : "";
  return (
    <p role="status" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="stale-notice">
      The API&apos;s rate limit for this key is used up, so these rows are the last answer, from {formatAge(freshness.ageSeconds)}.{reset}
    </p>
  );
}

/** Under EMS_LOW_BUDGET_PERCENT of the window left: a quiet line for every member using the key. */
export function LowBudgetNotice({ budget }: { budget: RateBudget | null }) {
  if (!budget?.low) return null;
  return (
    <p role="status" className="rounded border border-amber-200 bg-amber-50/60 px-3 py-2 text-sm text-amber-900" data-testid="low-budget">
      <span className="font-medium">API budget low:</span> {formatCount(budget.remaining)} of {formatCount(budget.limit)} credits left for this key
      {budget.resetInSeconds > 0 ? `, until it resets in ${formatSeconds(budget.resetInSeconds)}` : ""}. Until then pages show the team&apos;s last answers (their age is
      shown; a refresh asks again), and exports wait for the reset.
    </p>
  );
}
