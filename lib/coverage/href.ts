/**
 * The Coverage page's options as data and its one URL writer, without the parser's schema
 * (./search-params.ts): the heat map's rows (components/coverage/heatmap-rows.tsx) write their
 * cells' links in the browser, where zod must not go.
 */

export const COVERAGE_SORTS = ["start", "-start", "name", "-name", "gaps"] as const;
export type CoverageSort = (typeof COVERAGE_SORTS)[number];
export const COVERAGE_ONLY = ["", "gaps", "failing"] as const;
export type CoverageOnly = (typeof COVERAGE_ONLY)[number];
export const COVERAGE_PAGE_SIZE = 50;

export interface CoverageState {
  /** "open": not ended, not cancelled (the default); "all": every event. */
  scope: "open" | "all";
  /** Event name contains (case-insensitive). */
  q: string;
  /** "gaps": events with a trigger column that fires nothing or only broken webhooks; "failing": events that miss a required trigger. */
  only: CoverageOnly;
  sort: CoverageSort;
  page: number;
  /** the cell whose panel is open: an event and a trigger object ("61:registrant"), or null */
  cell: { eventId: number; object: string } | null;
  notices: string[];
}

/** The page's URL with some options changed (defaults left out, so links stay short); an open panel stays open unless `cell` says otherwise. */
export function coverageHref(state: CoverageState, change: Partial<Omit<CoverageState, "notices">> = {}): string {
  const next = { ...state, ...change };
  const params = new URLSearchParams();
  if (next.scope !== "open") params.set("scope", next.scope);
  if (next.q) params.set("q", next.q);
  if (next.only) params.set("only", next.only);
  if (next.sort !== "start") params.set("sort", next.sort);
  if (next.page > 1) params.set("page", String(next.page));
  if (next.cell) params.set("cell", `${next.cell.eventId}:${next.cell.object}`);
  const query = params.toString();
  return query ? `/coverage?${query}` : "/coverage";
}
