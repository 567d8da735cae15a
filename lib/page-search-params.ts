/** What Next.js hands a page as `searchParams` (its declared type: the values are not checked). */
export type PageSearchParams = Record<string, string | string[] | undefined>;

/**
 * Control characters (C0, DEL, C1). PostgreSQL refuses a NUL in any text value, so `?q=%00` reaching
 * a query was a 500; none of them means anything in a name, a search or an id list.
 */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROL_CHARACTERS = new RegExp(CONTROL_CHARACTER.source, "g");

/**
 * A control character becomes a space rather than nothing: a line break is how a pasted id list
 * separates its ids (lib/listing/ids.ts), so "1⏎2" stays two ids instead of becoming 12.
 */
function withoutControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, " ");
}

/**
 * A page's `searchParams` as a real URLSearchParams, the one form every parser of a URL reads; every
 * name and value free of control characters, every repeated parameter kept (`filter=a&filter=b`).
 *
 * Next.js builds the object by assigning each name on a plain object (`query[name] = value`, and a
 * second value turns what is there into a list), so a name every object inherits arrives mangled:
 * `?toString=1` as `{ toString: [Object.prototype.toString, "1"] }` (likewise `constructor`,
 * `valueOf`, `hasOwnProperty`), and `?__proto__=1` replaces the object's prototype instead of
 * adding a key. Only own string values are kept, so such a name is either a plain string
 * parameter or absent, never a function that a parser calls `.trim()` on.
 */
export function pageSearchParams(input: URLSearchParams | PageSearchParams): URLSearchParams {
  const entries: [string, unknown][] = input instanceof URLSearchParams ? [...input.entries()] : Object.entries(input);
  // A route handler's or a nested query's parameters: copied only when there is something to clean.
  if (input instanceof URLSearchParams && !entries.some(([name, value]) => CONTROL_CHARACTER.test(name) || CONTROL_CHARACTER.test(value as string))) return input;
  const params = new URLSearchParams();
  for (const [name, value] of entries) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item === "string") params.append(withoutControlCharacters(name), withoutControlCharacters(item));
    }
  }
  return params;
}

/** `?page=`: a whole number from 1 to `max`, else page 1 (a list's pager never fails a page). */
export function pageNumberParam(params: URLSearchParams, max = 100_000): number {
  const text = params.get("page")?.trim() ?? "";
  return /^\d{1,15}$/.test(text) && Number(text) >= 1 ? Math.min(Number(text), max) : 1;
}
