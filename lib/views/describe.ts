/**
 * A saved view in words, from its stored options: "Status is live · Starts on or after 1 Jan 2026 ·
 * Starts, newest first". The options are read by the page's own parser (so a view that names a
 * column or filter the page no longer takes is described as the page would apply it), and worded
 * with the page's labels and the filter builder's operator words. Pure: the tabs' tooltips and
 * /views show the same sentence, and never the raw query string.
 */
import { DEFAULT_PER_PAGE, SET_SEPARATOR, isSetOperator, type FieldType, type SortKey } from "@/lib/ems/contract";
import { operatorLabel, type FilterCondition } from "@/lib/listing/filters";
import { fieldLabel, listingConfig, type ResourceConfig } from "@/lib/listing/resources";
import { parseListingSearchParams } from "@/lib/listing/search-params";
import type { ListingPage } from "./validation";

const SEPARATOR = " · ";
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** More columns than this are counted, not listed. */
const MAX_LISTED_COLUMNS = 4;
/** More ids than this are counted, not listed. */
const MAX_LISTED_IDS = 5;

/** "2026-01-01" -> "1 Jan 2026"; "2026-01-01 09:30:00" -> "1 Jan 2026, 09:30". Anything else as it is. */
export function formatDateValue(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):\d{2})?$/.exec(value);
  if (!match) return value;
  const [, year, month, day, hours, minutes] = match;
  const monthName = MONTHS[Number(month) - 1];
  if (!monthName || Number(day) < 1 || Number(day) > 31) return value;
  const date = `${Number(day)} ${monthName} ${year}`;
  return hours === undefined ? date : `${date}, ${hours}:${minutes}`;
}

function typeOf(config: ResourceConfig, field: string): FieldType {
  return Object.hasOwn(config.searchable, field) ? config.searchable[field] : "text";
}

function valueInWords(type: FieldType, value: string): string {
  if (type === "date") return formatDateValue(value);
  if (type === "boolean") return value === "1" ? "yes" : value === "0" ? "no" : value;
  return value;
}

function filterInWords(config: ResourceConfig, filter: FilterCondition): string {
  const type = typeOf(config, filter.field);
  const values = isSetOperator(filter.operator) ? filter.value.split(SET_SEPARATOR) : [filter.value];
  const value = values.map((v) => valueInWords(type, v)).join(", ");
  return `${fieldLabel(config, filter.field)} ${operatorLabel(filter.operator, type)} ${value}`;
}

/** "Starts, newest first", "Name A–Z", "ID, highest first". */
export function sortKeyInWords(config: ResourceConfig, key: SortKey): string {
  const label = fieldLabel(config, key.field);
  const descending = key.direction === "desc";
  switch (typeOf(config, key.field)) {
    case "date":
      return `${label}, ${descending ? "newest" : "oldest"} first`;
    case "number":
      return `${label}, ${descending ? "highest" : "lowest"} first`;
    case "boolean":
      return `${label}, ${descending ? "yes" : "no"} first`;
    default:
      return `${label} ${descending ? "Z–A" : "A–Z"}`;
  }
}

/** The stored options of a view on a page, in words; "All <page>" when it names none. */
export function describeViewQuery(page: ListingPage, query: string): string {
  const config = listingConfig(page);
  const state = parseListingSearchParams(page, new URLSearchParams(query));
  const parts: string[] = [];

  if (state.filters.length > 0) {
    const conditions = state.filters.map((filter) => filterInWords(config, filter));
    if (state.searchCondition === "or" && conditions.length > 1) parts.push(conditions.join(" or "));
    else parts.push(...conditions);
  }
  if (state.ids.length > 0) {
    parts.push(
      state.ids.length > MAX_LISTED_IDS ? `Only ${state.ids.length} chosen ids` : `Only id${state.ids.length === 1 ? "" : "s"} ${state.ids.join(", ")}`,
    );
  }
  if (state.sort.length > 0 && state.sort.map((k) => `${k.field}:${k.direction}`).join() !== config.defaultSort.map((k) => `${k.field}:${k.direction}`).join()) {
    parts.push(state.sort.map((key) => sortKeyInWords(config, key)).join("; then "));
  }
  if (state.expand.includes("webhooks")) parts.push("With webhooks");
  if (state.fields.join(",") !== config.defaultFields.join(",")) {
    parts.push(
      state.fields.length > MAX_LISTED_COLUMNS
        ? `${state.fields.length} columns`
        : `Columns: ${state.fields.map((field) => fieldLabel(config, field)).join(", ")}`,
    );
  }
  if (state.perPage !== DEFAULT_PER_PAGE) parts.push(`${state.perPage} rows per page`);
  if (state.notices.length > 0 || state.idsErrors.length > 0) parts.push("some saved options no longer apply");

  if (parts.length === 0) return `All ${config.title.toLowerCase()}`;
  // "some saved options..." alone still describes a whole list.
  if (parts.length === 1 && (state.notices.length > 0 || state.idsErrors.length > 0)) return `All ${config.title.toLowerCase()}${SEPARATOR}${parts[0]}`;
  return parts.join(SEPARATOR);
}
