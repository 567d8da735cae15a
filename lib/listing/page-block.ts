/**
 * A listing's pages read in blocks of 200 rows, the most one call may ask for (docs/ems-api.md
 * §3): pages 1 to 10 of twenty rows are one block, so paging through a list, or going back to its
 * first page, is answered by one shared call (lib/ems/answer-cache.ts) instead of one per page. A
 * listing costs the same 10 credits whatever its per-page.
 *
 * Pages are cut from the block exactly as the API would have answered them, including its rule
 * that a page past the last one returns the last page again. Expanded listings are read in blocks
 * too: the groups list always expands its webhooks (its "Contents" column), and paging it must not
 * cost a call per page; a block of 200 groups with their webhooks is the price (about 4 webhooks a
 * group in the large sandbox account). Not read in blocks: a per-page that does not divide 200
 * (none the pages offer), whose pages could straddle two blocks.
 */
import type { ListMeta } from "@/lib/ems";
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from "@/lib/ems/contract";
import type { EmsListingQuery } from "./query";

export const PAGE_BLOCK_ROWS = MAX_PER_PAGE;

/** The block query that holds the page `query` asks for, or null when the page is read as it is. */
export function pageBlockOf<Q extends EmsListingQuery>(query: Q): Q | null {
  const perPage = query.perPage ?? DEFAULT_PER_PAGE;
  if (perPage >= PAGE_BLOCK_ROWS || PAGE_BLOCK_ROWS % perPage !== 0) return null;
  const index = Math.floor((((query.page ?? 1) - 1) * perPage) / PAGE_BLOCK_ROWS);
  return { ...query, page: index + 1, perPage: PAGE_BLOCK_ROWS };
}

/**
 * The page `query` asks for, cut from its block's answer; null when the answer cannot give it:
 * the API did not page as asked, or the page was past the end and its last page lies in a block
 * other than the one the API returned. The caller then asks for the page itself.
 */
export function pageFromBlock<T>(answer: { items: T[]; meta: ListMeta }, query: EmsListingQuery): { items: T[]; meta: ListMeta } | null {
  const { meta } = answer;
  if (meta.perPage !== PAGE_BLOCK_ROWS || answer.items.length > PAGE_BLOCK_ROWS) return null;
  const perPage = query.perPage ?? DEFAULT_PER_PAGE;
  const pageCount = Math.ceil(meta.totalCount / perPage);
  const currentPage = Math.max(1, Math.min(query.page ?? 1, pageCount));
  const first = (currentPage - 1) * perPage;
  const blockFirst = (meta.currentPage - 1) * PAGE_BLOCK_ROWS;
  if (first < blockFirst || first >= blockFirst + PAGE_BLOCK_ROWS) return null;
  return {
    items: answer.items.slice(first - blockFirst, first - blockFirst + perPage),
    meta: { totalCount: meta.totalCount, pageCount, currentPage, perPage },
  };
}
