import { z } from "zod";
import { pageSearchParams, type PageSearchParams } from "@/lib/page-search-params";

/**
 * The Coverage page's options, all in the URL (a link reproduces the page). Parsed by one schema
 * that falls back to the default for a value it does not know, and says so, never throws.
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
  const page = z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .catch(1)
    .parse(params.get("page") ?? 1);
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
