/**
 * A saved view in words, from its stored options: "Status is live · Starts on or after 1 Jan 2026 ·
 * Starts, newest first". The options are read by the page's own parser (so a view that names a
 * column or filter the page no longer takes is described as the page would apply it), and worded
 * as the toolbar words its chips and sort (lib/listing/words.ts). Pure: the tabs' tooltips and
 * /views show the same sentence, and never the raw query string.
 */
import { DEFAULT_PER_PAGE } from "@/lib/ems/contract";
import { fieldLabel, listingConfig } from "@/lib/listing/resources";
import { parseListingSearchParams } from "@/lib/listing/search-params";
import { CHECKS } from "@/lib/setup/checks";
import { filterInWords, sortInWords } from "@/lib/listing/words";
import type { ListingPage } from "./validation";
import { pluralWord } from "@/lib/text/plural";

const SEPARATOR = " · ";
/** More columns than this are counted, not listed. */
const MAX_LISTED_COLUMNS = 4;
/** More ids than this are counted, not listed. */
const MAX_LISTED_IDS = 5;

/** The stored options of a view on a page, in words; "All <page>" when it names none. */
export function describeViewQuery(page: ListingPage, query: string): string {
  const config = listingConfig(page);
  const state = parseListingSearchParams(page, new URLSearchParams(query));
  const parts: string[] = [];

  if (state.filters.length > 0) {
    // The toolbar's chips say the same words (lib/listing/words.ts).
    const conditions = state.filters.map((filter) => filterInWords(page, filter).text);
    if (state.searchCondition === "or" && conditions.length > 1) parts.push(conditions.join(" or "));
    else parts.push(...conditions);
  }
  if (state.check) parts.push(`Found by “${CHECKS[state.check].title}”`);
  if (state.ids.length > 0) {
    parts.push(state.ids.length > MAX_LISTED_IDS ? `Only ${state.ids.length} chosen ids` : `Only ${pluralWord(state.ids.length, "id")} ${state.ids.join(", ")}`);
  }
  if (state.sort.length > 0 && state.sort.map((k) => `${k.field}:${k.direction}`).join() !== config.defaultSort.map((k) => `${k.field}:${k.direction}`).join()) {
    parts.push(sortInWords(page, state.sort));
  }
  if (state.expand.includes("webhooks")) parts.push("With webhooks");
  if (state.fields.join(",") !== config.defaultFields.join(",")) {
    parts.push(
      state.fields.length > MAX_LISTED_COLUMNS ? `${state.fields.length} columns` : `Columns: ${state.fields.map((field) => fieldLabel(config, field)).join(", ")}`,
    );
  }
  if (state.perPage !== DEFAULT_PER_PAGE) parts.push(`${state.perPage} rows per page`);
  if (state.notices.length > 0 || state.idsErrors.length > 0) parts.push("some saved options no longer apply");

  if (parts.length === 0) return `All ${config.title.toLowerCase()}`;
  // "some saved options..." alone still describes a whole list.
  if (parts.length === 1 && (state.notices.length > 0 || state.idsErrors.length > 0)) return `All ${config.title.toLowerCase()}${SEPARATOR}${parts[0]}`;
  return parts.join(SEPARATOR);
}
