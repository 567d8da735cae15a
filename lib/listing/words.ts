/**
 * A listing's options in words, for the toolbar's chips and sort menu, and for describing a view:
 * "Status is one of live or draft", "Starts, newest first; then Name A–Z". Pure and browser-safe.
 */
import { SET_SEPARATOR, isSetOperator, type SortKey } from "@/lib/ems/contract";
import { operatorLabel, type FilterCondition } from "./filters";
import { fieldLabel, listingConfig, type ListingResource } from "./resources";

/** How a column's values order: decides the words for each direction. */
type OrderKind = "number" | "text" | "date" | "time" | "boolean";

const ORDER_KIND: Record<string, OrderKind> = {
  id: "number",
  type_id: "number",
  folder_id: "number",
  capacity: "number",
  start_date: "date",
  end_date: "date",
  created_at: "date",
  updated_at: "date",
  start_time: "time",
  end_time: "time",
  free_event: "boolean",
  group_id: "number",
  enabled: "boolean",
  any_event: "boolean",
};

const DIRECTION_WORDS: Record<OrderKind, { asc: string; desc: string }> = {
  number: { asc: "lowest first", desc: "highest first" },
  text: { asc: "A–Z", desc: "Z–A" },
  date: { asc: "oldest first", desc: "newest first" },
  time: { asc: "earliest first", desc: "latest first" },
  boolean: { asc: "no first", desc: "yes first" },
};

export function directionInWords(field: string, direction: SortKey["direction"]): string {
  const kind = Object.hasOwn(ORDER_KIND, field) ? ORDER_KIND[field] : "text";
  return DIRECTION_WORDS[kind][direction];
}

/** One sort level: "Starts, newest first" or "Name A–Z". */
export function sortKeyInWords(resource: ListingResource, key: SortKey): string {
  const label = fieldLabel(listingConfig(resource), key.field);
  const words = directionInWords(key.field, key.direction);
  return words.includes("first") ? `${label}, ${words}` : `${label} ${words}`;
}

/** The API's own order, when no sort is asked for (the sandbox lists by id; production does too). */
export const DEFAULT_ORDER_WORDS = "Default order (ID, lowest first)";

/** The whole sort: "Starts, newest first; then Name A–Z". */
export function sortInWords(resource: ListingResource, sort: readonly SortKey[]): string {
  if (sort.length === 0) return DEFAULT_ORDER_WORDS;
  return sort.map((key, i) => (i === 0 ? sortKeyInWords(resource, key) : `then ${sortKeyInWords(resource, key)}`)).join("; ");
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2026-01-05" → "5 Jan 2026" (a timestamp keeps its time, stated as UTC); anything else as written. */
export function dateInWords(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}:\d{2})(?::\d{2})?)?$/.exec(value);
  if (!match) return value;
  const [, year, month, day, time] = match;
  const monthIndex = Number(month) - 1;
  if (monthIndex < 0 || monthIndex > 11) return value;
  return `${Number(day)} ${MONTHS[monthIndex]} ${year}${time ? `, ${time} UTC` : ""}`;
}

function valueInWords(resource: ListingResource, condition: FilterCondition): string {
  const type = listingConfig(resource).searchable[condition.field];
  const one = (value: string) =>
    type === "date" && !condition.operator.includes("*") ? dateInWords(value) : type === "boolean" ? (value === "1" ? "yes" : "no") : value;
  if (!isSetOperator(condition.operator)) return one(condition.value);
  const values = condition.value.split(SET_SEPARATOR).map(one);
  return values.length <= 2 ? values.join(" or ") : `${values.slice(0, -1).join(", ")} or ${values[values.length - 1]}`;
}

/** One filter: "Name contains sync", "Starts on or after 1 Jan 2026", "Status is one of live or draft". */
export function filterInWords(resource: ListingResource, condition: FilterCondition): { field: string; operator: string; value: string; text: string } {
  const config = listingConfig(resource);
  const type = Object.hasOwn(config.searchable, condition.field) ? config.searchable[condition.field] : "text";
  const field = fieldLabel(config, condition.field);
  const operator = operatorLabel(condition.operator, type);
  const value = valueInWords(resource, condition);
  return { field, operator, value, text: `${field} ${operator} ${value}` };
}
