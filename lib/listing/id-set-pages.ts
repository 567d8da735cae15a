/**
 * A list of a known set of ids (a Health check's records, `check=`), paged here: the EMS takes at
 * most MAX_IDS `ids` a call (docs/ems-api.md §4.3), and a check can find thousands. The set is in
 * ascending id order and cut into pages of the list's rows per page (at most MAX_IDS); only one
 * page's ids go to the EMS, with the list's other options. So, in such a list:
 * - the pages follow the ids (page 2 is the second hundred ids); a sort orders the rows of a page;
 * - the other filters narrow each page (a page may show fewer rows than the page size), and the
 *   count is the set's, not what the filters keep.
 */
import { MAX_IDS } from "@/lib/ems/contract";

export interface IdSetPage {
  /** The ids of this page, for the EMS. */
  ids: number[];
  totalCount: number;
  pageCount: number;
  /** The page shown: past the last one, the last one (as the API answers). */
  currentPage: number;
  perPage: number;
}

/** The page's rows: the list's, but never more ids than one call takes. */
export function idSetPerPage(perPage: number): number {
  return Math.min(perPage, MAX_IDS);
}

/** Page `page` of `ids` (ascending, each once), `perPage` rows a page (capped at MAX_IDS). */
export function idSetPage(ids: readonly number[], page: number, perPage: number): IdSetPage {
  const size = idSetPerPage(perPage);
  const pageCount = Math.ceil(ids.length / size);
  const currentPage = Math.max(1, Math.min(page, pageCount));
  const first = (currentPage - 1) * size;
  return { ids: ids.slice(first, first + size), totalCount: ids.length, pageCount, currentPage, perPage: size };
}

/** The set narrowed by the list's own `ids=` (both apply: a record must be in each). */
export function withinIds(ids: readonly number[], only: readonly number[]): number[] {
  if (only.length === 0) return [...ids];
  const allowed = new Set(only);
  return ids.filter((id) => allowed.has(id));
}
