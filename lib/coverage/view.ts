import type { EventCoverage } from "./compute";
import type { CoverageState } from "./search-params";

/** What the list's filters and sorts read of a row: the report's rows and the stored ones (lib/coverage/stored.ts) alike. */
export interface CoverageRowLike {
  event: Pick<EventCoverage["event"], "id" | "name" | "start_date" | "start_time">;
  requirementsMet: boolean;
  counts: Pick<EventCoverage["counts"], "none" | "degraded">;
}

/** Columns that fire nothing, or only disabled, plain-HTTP or silent webhooks. */
export function gapCount(row: Pick<CoverageRowLike, "counts">): number {
  return row.counts.none + row.counts.degraded;
}

/** The rows the page shows, filtered and sorted as the URL says (before paging). */
export function selectCoverageRows<Row extends CoverageRowLike>(rows: readonly Row[], state: Pick<CoverageState, "q" | "only" | "sort">): Row[] {
  const needle = state.q.toLocaleLowerCase();
  const kept = rows.filter((row) => {
    if (needle && !(row.event.name ?? "").toLocaleLowerCase().includes(needle)) return false;
    if (state.only === "gaps" && gapCount(row) === 0) return false;
    if (state.only === "failing" && row.requirementsMet) return false;
    return true;
  });
  const start = (row: Row) => `${row.event.start_date ?? "9999-99-99"} ${row.event.start_time ?? ""}`;
  const name = (row: Row) => row.event.name ?? "";
  const compare: Record<CoverageState["sort"], (a: Row, b: Row) => number> = {
    start: (a, b) => start(a).localeCompare(start(b)) || a.event.id - b.event.id,
    "-start": (a, b) => start(b).localeCompare(start(a)) || b.event.id - a.event.id,
    name: (a, b) => name(a).localeCompare(name(b)) || a.event.id - b.event.id,
    "-name": (a, b) => name(b).localeCompare(name(a)) || b.event.id - a.event.id,
    gaps: (a, b) => Number(a.requirementsMet) - Number(b.requirementsMet) || gapCount(b) - gapCount(a) || a.event.id - b.event.id,
  };
  return kept.sort(compare[state.sort]);
}
