import type { EventCoverage } from "./compute";
import type { CoverageState } from "./search-params";

/** Columns that fire nothing, or only disabled, plain-HTTP or silent webhooks. */
export function gapCount(row: EventCoverage): number {
  return row.counts.none + row.counts.degraded;
}

/** The rows the page shows, filtered and sorted as the URL says (before paging). */
export function selectCoverageRows(rows: readonly EventCoverage[], state: Pick<CoverageState, "q" | "only" | "sort">): EventCoverage[] {
  const needle = state.q.toLocaleLowerCase();
  const kept = rows.filter((row) => {
    if (needle && !(row.event.name ?? "").toLocaleLowerCase().includes(needle)) return false;
    if (state.only === "gaps" && gapCount(row) === 0) return false;
    if (state.only === "failing" && row.requirementsMet) return false;
    return true;
  });
  const start = (row: EventCoverage) => `${row.event.start_date ?? "9999-99-99"} ${row.event.start_time ?? ""}`;
  const name = (row: EventCoverage) => row.event.name ?? "";
  const compare: Record<CoverageState["sort"], (a: EventCoverage, b: EventCoverage) => number> = {
    start: (a, b) => start(a).localeCompare(start(b)) || a.event.id - b.event.id,
    "-start": (a, b) => start(b).localeCompare(start(a)) || b.event.id - a.event.id,
    name: (a, b) => name(a).localeCompare(name(b)) || a.event.id - b.event.id,
    "-name": (a, b) => name(b).localeCompare(name(a)) || b.event.id - a.event.id,
    gaps: (a, b) => Number(a.requirementsMet) - Number(b.requirementsMet) || gapCount(b) - gapCount(a) || a.event.id - b.event.id,
  };
  return kept.sort(compare[state.sort]);
}
