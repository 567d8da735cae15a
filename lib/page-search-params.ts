/** What Next.js hands a page as `searchParams` (its declared type: the values are not checked). */
export type PageSearchParams = Record<string, string | string[] | undefined>;

/**
 * A page's `searchParams` as a real URLSearchParams, the one form every parser of a URL reads.
 *
 * Next.js builds the object by assigning each name on a plain object (`query[name] = value`, and a
 * second value turns what is there into a list), so a name every object inherits arrives mangled:
 * `?toString=1` as `{ toString: [Object.prototype.toString, "1"] }` (likewise `constructor`,
 * `valueOf`, `hasOwnProperty`), and `?__proto__=1` replaces the object's prototype instead of
 * adding a key. Only own string values are kept, so such a name is either a plain string
 * parameter or absent, never a function that a parser calls `.trim()` on.
 */
export function pageSearchParams(input: URLSearchParams | PageSearchParams): URLSearchParams {
  if (input instanceof URLSearchParams) return input;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(input)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item === "string") params.append(name, item);
    }
  }
  return params;
}
