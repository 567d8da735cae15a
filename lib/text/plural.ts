/**
 * A count with its noun, in English: "1 webhook", "3 webhooks", "1,200 entries". The one way the
 * portal writes a number of things (counts grouped by thousands, as lib/listing/format.ts's
 * formatCount writes them). Pure: safe in the browser.
 */

const rules = new Intl.PluralRules("en-US");
const countFormat = new Intl.NumberFormat("en-US");

/** The noun that goes with `count`: `one` for exactly one, `many` (default: `one` + "s") otherwise. */
export function pluralWord(count: number, one: string, many = `${one}s`): string {
  return rules.select(count) === "one" ? one : many;
}

/** "1 webhook", "0 webhooks", "1,200 entries" (`plural(n, "entry", "entries")`). */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${countFormat.format(count)} ${pluralWord(count, one, many)}`;
}
