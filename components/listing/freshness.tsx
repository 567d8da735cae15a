import { formatSeconds } from "@/lib/duration";
import { LISTING_COST, SINGLE_CALL_COST } from "@/lib/ems/config";
import { formatCount } from "@/lib/listing/format";
import type { Freshness, RateBudget } from "@/lib/ems-access/shared-read";
import { RefreshButton } from "./refresh-button";

/** "just now", "12 s ago", "3 min ago". */
export function formatAge(seconds: number): string {
  if (seconds < 1) return "just now";
  if (seconds < 90) return `${seconds} s ago`;
  return `${Math.round(seconds / 60)} min ago`;
}

/**
 * How old the rows on screen are, and a refresh that says what it costs. Shown when answers are
 * shared (EMS_SHARED_ANSWER_SECONDS > 0); with sharing off every view is a fresh call.
 */
export function DataAge({ freshness, refresh }: { freshness: Freshness; refresh: { resource: string; search: string; groupId?: number } }) {
  if (freshness.windowSeconds <= 0) return null;
  // A <div>, not a <p>: the refresh is a <form>, which a paragraph cannot hold (the browser closes
  // the paragraph before it, and React then fails to hydrate the page).
  return (
    <div className="flex flex-wrap items-center gap-x-2 text-sm text-slate-600" data-testid="data-age">
      <span>
        Data as of <span data-testid="data-age-value">{formatAge(freshness.ageSeconds)}</span>
        {freshness.stale ? <span className="font-medium text-amber-800"> (stale)</span> : null}
        <span className="sr-only">; answers are shared with your team for {freshness.windowSeconds} seconds</span>
      </span>
      <span aria-hidden className="text-slate-300">
        ·
      </span>
      {/* What a refresh spends: a listing, or a group page's single-record read. */}
      <RefreshButton {...refresh} cost={refresh.groupId === undefined ? LISTING_COST : SINGLE_CALL_COST} />
    </div>
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
