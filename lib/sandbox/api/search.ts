import { badRequest } from "../core/errors";
import { HAYSTACK_SEPARATOR, isLatin1, type Table } from "../data/table";
import type { ResourceDescriptor, SearchFieldType } from "./descriptors";

/**
 * The `search` parameter (docs/ems-api.md §4.4): `<field><operator><value>` conditions joined by `&`,
 * combined with AND, or OR under `searchCondition=or`. Text matching is case-insensitive.
 *
 * The sandbox's own copy of the contract, on purpose: it does not import lib/ems/contract.ts (the
 * portal's copy). The two sides of the contract must not share a definition, or a mistake in it
 * would pass every test.
 */
export const COMPARISON_OPERATORS = ["=", "!=", ">", "<", ">=", "<="] as const;
export const TEXT_OPERATORS = ["=*contains*", "=*beginswith*", "=*endswith*", "!=*contains*", "!=*beginswith*", "!=*endswith*"] as const;
/** `=*in*` takes `|`-separated values; `!=*in*` is its negation (docs/ems-api.md §4.4). */
export const SET_OPERATORS = ["=*in*", "!=*in*"] as const;
export type SearchOperator = (typeof COMPARISON_OPERATORS)[number] | (typeof TEXT_OPERATORS)[number] | (typeof SET_OPERATORS)[number];

/**
 * Dates compare as text in their stated formats, so they take the text operators too. The set
 * operators work on every searchable field; booleans (`0`/`1`) take equality only.
 */
export const OPERATORS_BY_TYPE: Record<SearchFieldType, readonly SearchOperator[]> = {
  number: [...COMPARISON_OPERATORS, ...SET_OPERATORS],
  text: [...COMPARISON_OPERATORS, ...TEXT_OPERATORS, ...SET_OPERATORS],
  date: [...COMPARISON_OPERATORS, ...TEXT_OPERATORS, ...SET_OPERATORS],
  boolean: ["=", "!=", ...SET_OPERATORS],
};

/** The separator of a set operator's values. */
export const SET_SEPARATOR = "|";

export type SearchCondition = { field: string; operator: SearchOperator; value: string };

const TEXT_OPERATOR_WORDS = ["contains", "beginswith", "endswith", "in"];
const FIELD = /^[A-Za-z_][A-Za-z0-9_]*/;
const STAR_WORD = /^(!?=)\*([A-Za-z]+)\*/;
const INTEGER = /^-?\d{1,15}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_OR_TIMESTAMP = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/;

function parseOperator(rest: string, raw: string): { operator: SearchOperator; value: string } | null {
  const star = STAR_WORD.exec(rest);
  if (star) {
    const word = star[2].toLowerCase();
    if (!TEXT_OPERATOR_WORDS.includes(word)) {
      // A typo such as *within* must never silently become an equality test (docs/ems-api.md §4.4).
      throw badRequest(`Malformed search condition "${raw}": "*${star[2]}*" is not an operator; use *contains*, *beginswith*, *endswith* or *in*.`);
    }
    return { operator: `${star[1]}*${word}*` as SearchOperator, value: rest.slice(star[0].length) };
  }
  for (const operator of ["!=", ">=", "<=", "=", ">", "<"] as const) {
    if (rest.startsWith(operator)) return { operator, value: rest.slice(operator.length) };
  }
  return null;
}

function parseCondition(raw: string, resource: ResourceDescriptor): SearchCondition {
  if (raw.trim() === "") throw badRequest("Malformed search: an empty condition (check for a doubled or trailing &).");
  const fieldMatch = FIELD.exec(raw);
  const parsed = fieldMatch ? parseOperator(raw.slice(fieldMatch[0].length), raw) : null;
  if (!fieldMatch || !parsed) {
    throw badRequest(`Malformed search condition "${raw}": expected <field><operator><value>, e.g. name=*contains*summit.`);
  }
  const field = fieldMatch[0];
  const type = resource.searchable[field];
  if (!type) {
    throw badRequest(`Unknown search field "${field}" for ${resource.label}. Searchable fields: ${Object.keys(resource.searchable).join(", ")}.`);
  }
  const { operator, value } = parsed;
  if (!OPERATORS_BY_TYPE[type].includes(operator)) {
    throw badRequest(`Operator "${operator}" does not apply to the ${type} field "${field}". Use one of: ${OPERATORS_BY_TYPE[type].join(" ")}.`);
  }
  if (operator === "=*in*" || operator === "!=*in*") {
    checkSetValues(raw, field, type, value);
    return { field, operator, value };
  }
  if (operator.includes("*") && value === "") throw badRequest(`Malformed search condition "${raw}": "${operator}" needs a value.`);
  if (type === "number" && !INTEGER.test(value)) throw badRequest(`Search value "${value}" for ${field} must be an integer.`);
  if (type === "boolean" && value !== "0" && value !== "1") throw badRequest(`Search value "${value}" for ${field} must be 0 or 1.`);
  if (type === "date" && !operator.includes("*")) {
    const isTimestamp = resource.timestampFields.includes(field);
    if (!(isTimestamp ? DATE_OR_TIMESTAMP : DATE).test(value)) {
      throw badRequest(`Search value "${value}" for ${field} must be a date ${isTimestamp ? "YYYY-MM-DD or YYYY-MM-DD HH:MM:SS" : "YYYY-MM-DD"}.`);
    }
  }
  return { field, operator, value };
}

/** The values of `=*in*`: a non-empty `|`-separated list without empty entries, each fitting the field's type. */
function checkSetValues(raw: string, field: string, type: SearchFieldType, value: string): void {
  if (value === "") throw badRequest(`Malformed search condition "${raw}": "*in*" needs at least one value, e.g. ${field}=*in*a|b.`);
  const values = value.split(SET_SEPARATOR);
  if (values.some((entry) => entry === ""))
    throw badRequest(`Malformed search condition "${raw}": the list of "*in*" has an empty entry (check for a doubled or trailing |).`);
  for (const entry of values) {
    if (type === "number" && !INTEGER.test(entry)) throw badRequest(`Search value "${entry}" in the "*in*" list for ${field} must be an integer.`);
    if (type === "boolean" && entry !== "0" && entry !== "1") throw badRequest(`Search value "${entry}" in the "*in*" list for ${field} must be 0 or 1.`);
  }
}

/** Parses the decoded `search` value; throws a 400 with a precise message for any bad condition. */
export function parseSearch(search: string, resource: ResourceDescriptor): SearchCondition[] {
  return search.split("&").map((raw) => parseCondition(raw, resource));
}

/**
 * Matching rows as a mask (1 = match) with its count. Each condition is evaluated in one tight
 * loop over a column rather than one closure call per row, and `contains` scans a single joined
 * haystack with indexOf, which is what keeps a search over 100,000 names within a few milliseconds.
 */
export type RowMask = { mask: Uint8Array; count: number };

function countMask(mask: Uint8Array): RowMask {
  let count = 0;
  for (let index = 0; index < mask.length; index++) count += mask[index];
  return { mask, count };
}

function compare(op: SearchOperator, cmp: number): boolean {
  switch (op) {
    case "=":
      return cmp === 0;
    case "!=":
      return cmp !== 0;
    case ">":
      return cmp > 0;
    case "<":
      return cmp < 0;
    case ">=":
      return cmp >= 0;
    case "<=":
      return cmp <= 0;
    default:
      return false;
  }
}

/** Below this many rows a plain scan is as fast as building and consulting a trigram index. */
export const TRIGRAM_MIN_ROWS = 2000;

/** Rows in both ascending lists. */
function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(a.length, b.length));
  let length = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] < b[j]) i++;
    else if (a[i] > b[j]) j++;
    else {
      out[length++] = a[i];
      i++;
      j++;
    }
  }
  return out.subarray(0, length);
}

/** Marks the rows whose text contains the needle; returns how many. */
function containsMask<Row extends { id: number }>(table: Table<Row>, field: string, needle: string, mask: Uint8Array): number {
  if (needle.includes(HAYSTACK_SEPARATOR)) return 0;
  let count = 0;
  if (needle.length >= 3 && table.size >= TRIGRAM_MIN_ROWS) {
    const trigrams = table.trigrams(field);
    const lists: Int32Array[] = [];
    for (let i = 0; i + 3 <= needle.length; i++) {
      const rows = trigrams.get(needle.slice(i, i + 3));
      // A trigram no row holds: nothing can contain the needle.
      if (!rows) return 0;
      lists.push(rows);
    }
    // Candidates: rows holding the two rarest trigrams; each is then checked for the whole needle.
    lists.sort((a, b) => a.length - b.length);
    const candidates = lists.length > 1 ? intersect(lists[0], lists[1]) : lists[0];
    const column = table.lowerColumn(field);
    for (let i = 0; i < candidates.length; i++) {
      const row = candidates[i];
      if (column[row].includes(needle)) {
        mask[row] = 1;
        count++;
      }
    }
    return count;
  }
  const needleIsLatin1 = isLatin1(needle);
  for (const { text, starts, rows, latin1 } of table.haystacks(field)) {
    if (latin1 && !needleIsLatin1) continue;
    let position = text.indexOf(needle);
    while (position >= 0) {
      // Binary search for the row whose text holds this position.
      let low = 0;
      let high = starts.length - 1;
      while (low < high) {
        const middle = (low + high + 1) >> 1;
        if (starts[middle] <= position) low = middle;
        else high = middle - 1;
      }
      mask[rows[low]] = 1;
      count++;
      if (low + 1 >= starts.length) break;
      position = text.indexOf(needle, starts[low + 1]);
    }
  }
  return count;
}

/**
 * Recent condition masks per table: a client paging through one search asks the same conditions
 * for every page. Masks are never mutated once cached (combining copies).
 */
const MASK_CACHE_SIZE = 16;
const maskCaches = new WeakMap<object, Map<string, RowMask>>();

function cachedConditionMask<Row extends { id: number }>(table: Table<Row>, condition: SearchCondition, type: SearchFieldType): RowMask {
  let cache = maskCaches.get(table);
  if (!cache) {
    cache = new Map();
    maskCaches.set(table, cache);
  }
  const key = `${condition.field}\u0001${condition.operator}\u0001${condition.value.toLowerCase()}`;
  let mask = cache.get(key);
  if (mask) {
    // Refresh its place in the least-recently-used order.
    cache.delete(key);
  } else {
    mask = conditionMask(table, condition, type);
    if (cache.size >= MASK_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  }
  cache.set(key, mask);
  return mask;
}

function conditionMask<Row extends { id: number }>(table: Table<Row>, condition: SearchCondition, type: SearchFieldType): RowMask {
  const { field, operator, value } = condition;
  const size = table.size;
  const mask = new Uint8Array(size);
  if (operator === "=*in*" || operator === "!=*in*") {
    const negated = operator === "!=*in*";
    if (type === "number" || type === "boolean") {
      const wanted = new Set(value.split(SET_SEPARATOR).map(Number));
      for (let index = 0; index < size; index++) {
        const cell = table.value(index, field);
        const number = typeof cell === "boolean" ? Number(cell) : cell;
        if (wanted.has(number as number) !== negated) mask[index] = 1;
      }
      return countMask(mask);
    }
    const wanted = new Set(value.toLowerCase().split(SET_SEPARATOR));
    const column = table.lowerColumn(field);
    for (let index = 0; index < size; index++) if (wanted.has(column[index]) !== negated) mask[index] = 1;
    return countMask(mask);
  }
  if (type === "boolean") {
    const target = value === "1";
    const equal = operator === "=";
    for (let index = 0; index < size; index++) if ((table.value(index, field) === target) === equal) mask[index] = 1;
    return countMask(mask);
  }
  if (type === "number") {
    const target = Number(value);
    for (let index = 0; index < size; index++) {
      const cell = table.value(index, field);
      if (typeof cell === "number" && compare(operator, cell < target ? -1 : cell > target ? 1 : 0)) mask[index] = 1;
    }
    return countMask(mask);
  }
  if (operator === "=*contains*" || operator === "!=*contains*") {
    const count = containsMask(table, field, value.toLowerCase(), mask);
    if (operator === "=*contains*") return { mask, count };
    for (let index = 0; index < size; index++) mask[index] ^= 1;
    return { mask, count: size - count };
  }
  const column = table.lowerColumn(field);
  const needle = value.toLowerCase();
  const negated = operator.startsWith("!=*");
  switch (operator) {
    case "=*beginswith*":
    case "!=*beginswith*":
      for (let index = 0; index < size; index++) if (column[index].startsWith(needle)) mask[index] = 1;
      break;
    case "=*endswith*":
    case "!=*endswith*":
      for (let index = 0; index < size; index++) if (column[index].endsWith(needle)) mask[index] = 1;
      break;
    default:
      for (let index = 0; index < size; index++) {
        const cell = column[index];
        if (compare(operator, cell < needle ? -1 : cell > needle ? 1 : 0)) mask[index] = 1;
      }
  }
  if (negated) for (let index = 0; index < size; index++) mask[index] ^= 1;
  return countMask(mask);
}

/** The rows matching all (or, under `or`, any) conditions; undefined when there is nothing to filter. */
export function searchMask<Row extends { id: number }>(
  table: Table<Row>,
  conditions: readonly SearchCondition[],
  mode: "and" | "or",
  resource: ResourceDescriptor,
): RowMask | undefined {
  if (conditions.length === 0) return undefined;
  const [first, ...rest] = conditions.map((condition) => cachedConditionMask(table, condition, resource.searchable[condition.field]));
  if (rest.length === 0) return first;
  const mask = Uint8Array.from(first.mask);
  for (const { mask: other } of rest) {
    if (mode === "and") for (let index = 0; index < mask.length; index++) mask[index] &= other[index];
    else for (let index = 0; index < mask.length; index++) mask[index] |= other[index];
  }
  return countMask(mask);
}
