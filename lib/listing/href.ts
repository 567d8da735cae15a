/**
 * A listing state written back into its URL, and the moves that make the next one (sort by a
 * column, add a level, remove a filter…). Pure and free of server-only imports: the server renders
 * links with these functions and the toolbar in the browser navigates with the same ones, so a link
 * and a click always agree.
 */
import { DEFAULT_PER_PAGE, formatSortKey, type SortKey } from "@/lib/ems/contract";
import { formatFilter } from "./filters";
import { formatIdList } from "./ids";
import { MAX_SORT_LEVELS, SUBJECT_KIND_OF, listingConfig } from "./resources";
import { CHECKS, type RuleId } from "@/lib/setup/checks";
import type { ListingState } from "./search-params";

export function formatSort(sort: readonly SortKey[]): string {
  return sort.map(formatSortKey).join(",");
}

/**
 * The canonical URL search string of a state: fixed order, defaults left out, so that equal
 * options give equal URLs (saved views compare by it).
 */
export function toSearchParams(state: ListingState, options: { includeView?: boolean; includePage?: boolean } = {}): URLSearchParams {
  const config = listingConfig(state.resource);
  const params = new URLSearchParams();
  if (state.fields.join(",") !== config.defaultFields.join(",")) params.set("fields", state.fields.join(","));
  if (state.expand.length > 0) params.set("expand", state.expand.join(","));
  for (const filter of state.filters) params.append("filter", formatFilter(filter));
  if (state.filters.length > 1 && state.searchCondition === "or") params.set("searchCondition", "or");
  if (state.sort.length > 0 && formatSort(state.sort) !== formatSort(config.defaultSort)) params.set("sort", formatSort(state.sort));
  if (state.ids.length > 0) params.set("ids", formatIdList(state.ids));
  else if (state.idsErrors.length > 0 && state.idsText) params.set("ids", state.idsText);
  if (state.check) params.set("check", state.check);
  if (state.perPage !== DEFAULT_PER_PAGE) params.set("per-page", String(state.perPage));
  if ((options.includePage ?? true) && state.page > 1) params.set("page", String(state.page));
  if ((options.includeView ?? true) && state.view) params.set("view", state.view);
  return params;
}

/** The query a saved view stores: the options without page and view. */
export function viewQueryOf(state: ListingState): string {
  return toSearchParams(state, { includeView: false, includePage: false }).toString();
}

/**
 * "Change these…": every record these options select, as a plan (app/(portal)/plans/new reads the
 * same options with the same parser, lib/plans/selection.ts), page and view left out.
 */
export function changeTheseHref(state: ListingState): string {
  const options = toSearchParams(state, { includePage: false, includeView: false });
  return `/plans/new?${new URLSearchParams([["resource", state.resource], ...options]).toString()}`;
}

/** `path` with the list's options as its query (none: the bare path). */
function withOptions(path: string, state: ListingState): string {
  const search = toSearchParams(state).toString();
  return `${path}${search ? `?${search}` : ""}`;
}

export function hrefOf(state: ListingState, patch: Partial<ListingState> = {}): string {
  return withOptions(listingConfig(state.resource).path, { ...state, ...patch });
}

/**
 * The list's options page for a browser without JavaScript (app/(portal)/<list>/options): its form
 * is a page of its own rather than a `<noscript>` copy in every list's HTML and RSC payload.
 */
export function optionsHrefOf(state: ListingState): string {
  return withOptions(`${listingConfig(state.resource).path}/options`, state);
}

/** A change of what is listed starts again at page 1 (page 7 of the old filter means nothing). */
export function hrefWith(state: ListingState, patch: Partial<ListingState>): string {
  return hrefOf(state, { ...patch, page: 1 });
}

const flip = (key: SortKey): SortKey => ({ field: key.field, direction: key.direction === "asc" ? "desc" : "asc" });

/**
 * Clicking a header: sort by that column alone, ascending; clicking the leading column again goes
 * ascending → descending → off (the API's own order), keeping any further levels.
 */
export function sortByColumn(sort: readonly SortKey[], field: string): SortKey[] {
  if (sort[0]?.field !== field) return [{ field, direction: "asc" }];
  return sort[0].direction === "asc" ? [flip(sort[0]), ...sort.slice(1)] : sort.slice(1);
}

/**
 * Shift-click (or "then by"): add the column as the next level, ascending; on a column that is a
 * level already, ascending → descending → removed, the other levels kept in their order.
 */
export function sortThenBy(sort: readonly SortKey[], field: string): SortKey[] {
  const index = sort.findIndex((s) => s.field === field);
  if (index < 0) return [...sort, { field, direction: "asc" as const }].slice(0, MAX_SORT_LEVELS);
  if (sort[index].direction === "asc") return sort.map((s, i) => (i === index ? flip(s) : s));
  return sort.filter((_, i) => i !== index);
}

/** Health's "Show in the list": the list of the records a check looks at, filtered by it (`check=`). */
export function checkListHref(ruleId: RuleId): string {
  const resource = (Object.keys(SUBJECT_KIND_OF) as (keyof typeof SUBJECT_KIND_OF)[]).find((r) => SUBJECT_KIND_OF[r] === CHECKS[ruleId].looksAt)!;
  return `${listingConfig(resource).path}?${new URLSearchParams({ check: ruleId }).toString()}`;
}
