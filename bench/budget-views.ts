/**
 * bench:budget's page views (bench/budget.ts): what the old group page asked for, how one view's
 * answers are counted, and the targets' verdict. Apart from the bench so that they are tested
 * (tests/bench/budget-views.test.ts).
 */
import { WEBHOOK_GROUP_LISTING } from "@/lib/listing/resources";
import { parseListingSearchParams, type ListingState } from "@/lib/listing/search-params";

/**
 * The group page before shared answers and the budget plan (aee6e8a~1,
 * app/(portal)/webhook-groups/[id]/page.tsx `groupState`): a 10-credit listing of that one group by
 * `ids`, every field, webhooks expanded, and no call for the events' names. Rebuilt here because
 * the page no longer has it: today's page reads the group on its own (loadGroupPage, 1 credit).
 */
export function oldGroupPageState(id: number): ListingState {
  return {
    ...parseListingSearchParams("webhook-groups", {}),
    fields: [...WEBHOOK_GROUP_LISTING.fields],
    expand: ["webhooks"],
    ids: [id],
  };
}

/** What one load of a view gave: a failure's kind, or "ok" with whether it was the stale answer of a 429. */
export type LoadResult = { kind: "ok"; freshness: { stale: boolean } } | { kind: string };

/**
 * How a page view went, by the worst of its loads (a group's page has two: the group and its
 * events' names): rate-limited (a 429 shown), stale (an earlier answer shown because of a 429),
 * failed (any other failure) or ok.
 */
export type ViewResult = "ok" | "rate-limited" | "stale" | "failed";

export function viewResult(loads: readonly LoadResult[]): ViewResult {
  if (loads.some((load) => load.kind === "rate-limited")) return "rate-limited";
  if (loads.some((load) => load.kind !== "ok")) return "failed";
  if (loads.some((load) => "freshness" in load && load.freshness.stale)) return "stale";
  return "ok";
}

export interface TargetFigures {
  pageViews: number;
  apiCalls: number;
  rateLimited: number;
  stale: number;
  exportOutcome: string;
}

/**
 * The targets: no page view rate-limited (neither a 429 shown nor a stale answer served in
 * its place), API calls at most a third of page views, the export finishes.
 */
export function targetsLine(row: TargetFigures): string {
  const limited = row.rateLimited + row.stale === 0 ? "yes" : `NO (${row.rateLimited} shown a 429, ${row.stale} served a stale answer after a 429)`;
  const calls = `${row.apiCalls * 3 <= row.pageViews ? "yes" : "NO"} (${row.apiCalls} of ${row.pageViews})`;
  return `no page view rate-limited: ${limited}; API calls at most a third of page views: ${calls}; the export finishes: ${row.exportOutcome === "finished" ? "yes" : "NO"}.`;
}
