/**
 * A list's search box and the palette's record search: one meaning for "search for this text".
 * The EMS listing language has no free-text search, only conditions joined all one way (AND, or OR
 * with `searchCondition=or`: docs/ems-api.md §4), so a search is the text contained in any of a few
 * fields, or the record with that number, joined with OR. The list and the palette send the same
 * conditions and so count the same records.
 */
import { searchValueProblems } from "@/lib/ems/contract";
import { formatFilter, type FilterCondition } from "./filters";
import { hrefWith } from "./href";
import { listingConfig, type ListingResource } from "./resources";
import type { ListingState } from "./search-params";

/** Where the words are looked for, by list: what a person would call the record by. */
export const TEXT_SEARCH_FIELDS: Readonly<Record<ListingResource, readonly string[]>> = {
  webhooks: ["name", "url"],
  events: ["name"],
  "webhook-groups": ["name"],
};

/** The words a search box offers as its placeholder. */
export const TEXT_SEARCH_PLACEHOLDER: Readonly<Record<ListingResource, string>> = {
  webhooks: "Search name, URL or host",
  events: "Search event names",
  "webhook-groups": "Search group names",
};

const WHOLE_NUMBER = /^\d{1,12}$/;
const CONTAINS = "=*contains*";

/** The conditions of a search for `text` (already trimmed), to be joined with OR. */
export function textSearchFilters(resource: ListingResource, text: string): FilterCondition[] {
  const byField = TEXT_SEARCH_FIELDS[resource].map((field) => ({ field, operator: CONTAINS, value: text }));
  return WHOLE_NUMBER.test(text) ? [...byField, { field: "id", operator: "=", value: text }] : byField;
}

const sameConditions = (a: readonly FilterCondition[], b: readonly FilterCondition[]) =>
  a.length === b.length &&
  a.every((condition) => b.some((other) => other.field === condition.field && other.operator === condition.operator && other.value === condition.value));

/** The text this state searches for when its conditions are exactly a search's; otherwise null. */
export function textSearchOf(state: ListingState): string | null {
  const text = state.filters[0]?.value;
  if (text === undefined || (state.filters.length > 1 && state.searchCondition !== "or")) return null;
  return sameConditions(state.filters, textSearchFilters(state.resource, text)) ? text : null;
}

/**
 * The address of this list searching for `text` ("" clears the search). The list's other conditions
 * make way: with them the EMS would have to join some with AND and the search's with OR, which its
 * listing language cannot say. Columns, sort, rows per page and ids stay.
 */
export function textSearchHref(state: ListingState, text: string): string {
  const trimmed = text.trim();
  const filters = trimmed ? textSearchFilters(state.resource, trimmed) : [];
  return hrefWith(state, { filters, searchCondition: filters.length > 1 ? "or" : "and" });
}

/**
 * The list of every record a search for `text` finds, on the list's defaults (the palette's "All N
 * matching"). Written without a parsed state: the palette, in the browser, has none to start from.
 */
export function textSearchListHref(resource: ListingResource, text: string): string {
  const filters = textSearchFilters(resource, text.trim());
  const params = new URLSearchParams(filters.map((filter) => ["filter", formatFilter(filter)]));
  if (filters.length > 1) params.set("searchCondition", "or");
  return `${listingConfig(resource).path}?${params.toString()}`;
}

/** Why the EMS cannot take a text as a search (a `=*contains*` value), in words; null when it can. */
export function textSearchProblem(value: string): string | null {
  const [problem] = searchValueProblems("url", "text", "=*contains*", value);
  switch (problem?.kind) {
    case undefined:
      return null;
    case "ampersand":
      return "The EMS API cannot search for “&”: search for the part before or after it.";
    case "control-character":
      return "A search cannot contain a control character (a tab or a line break).";
    default:
      return "The EMS API cannot search for that text.";
  }
}
