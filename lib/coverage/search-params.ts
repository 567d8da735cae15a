import { z } from "zod";
import { pageNumberParam, pageSearchParams, type PageSearchParams } from "@/lib/page-search-params";
import { COVERAGE_ONLY, COVERAGE_SORTS, type CoverageState } from "./href";

/**
 * The Coverage page's options, all in the URL (a link reproduces the page). Parsed by one schema
 * that falls back to the default for a value it does not know, and says so, never throws.
 */
export { COVERAGE_ONLY, COVERAGE_PAGE_SIZE, COVERAGE_SORTS, coverageHref } from "./href";
export type { CoverageOnly, CoverageSort, CoverageState } from "./href";

const CELL = /^(\d{1,15}):([a-z_]{1,40})$/;

export function parseCoverageParams(input: URLSearchParams | PageSearchParams): CoverageState {
  const params = pageSearchParams(input);
  const notices: string[] = [];
  const pick = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const raw = params.get(name);
    if (raw === null || raw === "") return fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    notices.push(`“${String(raw).slice(0, 40)}” is not a choice for ${name}; showing the default.`);
    return fallback;
  };
  const q = z
    .string()
    .max(200)
    .catch("")
    .parse(params.get("q") ?? "")
    .trim();
  const page = pageNumberParam(params);
  const rawCell = params.get("cell")?.trim() ?? "";
  const cellMatch = CELL.exec(rawCell);
  if (rawCell && !cellMatch) notices.push(`“${rawCell.slice(0, 40)}” is not a cell of the map; no panel is open.`);
  const cell = cellMatch ? { eventId: Number(cellMatch[1]), object: cellMatch[2] } : null;
  return {
    scope: pick("scope", ["open", "all"] as const, "open"),
    q,
    only: pick("only", COVERAGE_ONLY, ""),
    sort: pick("sort", COVERAGE_SORTS, "start"),
    page,
    cell,
    notices,
  };
}
