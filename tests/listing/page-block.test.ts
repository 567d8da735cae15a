import { describe, expect, it } from "vitest";
import { PAGE_BLOCK_ROWS, pageBlockOf, pageFromBlock } from "@/lib/listing/page-block";

/** The API's paging (docs/ems-api.md §3): a page past the last returns the last page again. */
function apiPage(total: number, page: number, perPage: number) {
  const rows = Array.from({ length: total }, (_, index) => index + 1);
  const pageCount = Math.ceil(total / perPage);
  const currentPage = Math.max(1, Math.min(page, pageCount));
  return { items: rows.slice((currentPage - 1) * perPage, currentPage * perPage), meta: { totalCount: total, pageCount, currentPage, perPage } };
}

describe("a listing's pages read in blocks of 200 rows", () => {
  it("pages 1 to 10 of twenty rows are the first block; page 11 the second; the other options stay", () => {
    const query = { fields: ["id", "name"], sort: [{ field: "name", direction: "desc" as const }], page: 1, perPage: 20 };
    expect(pageBlockOf(query)).toEqual({ ...query, page: 1, perPage: PAGE_BLOCK_ROWS });
    expect(pageBlockOf({ ...query, page: 10 })?.page).toBe(1);
    expect(pageBlockOf({ ...query, page: 11 })?.page).toBe(2);
    expect(pageBlockOf({ ...query, page: 3, perPage: 100 })?.page).toBe(2);
    expect(pageBlockOf({ fields: ["id"] })).toEqual({ fields: ["id"], page: 1, perPage: PAGE_BLOCK_ROWS });
  });

  it("an expanded listing is read in blocks too (the groups list always expands its webhooks)", () => {
    expect(pageBlockOf({ expand: ["webhooks"], page: 2, perPage: 20 })).toEqual({ expand: ["webhooks"], page: 1, perPage: PAGE_BLOCK_ROWS });
  });

  it("200 rows a page, or a per-page whose pages straddle two blocks, is read as it is", () => {
    expect(pageBlockOf({ page: 2, perPage: 200 })).toBeNull();
    expect(pageBlockOf({ page: 2, perPage: 30 })).toBeNull();
  });

  it("every page cut from its block is the API's own answer for that page, past the end included", () => {
    for (const total of [0, 1, 19, 20, 137, 200, 201, 399, 400, 1234]) {
      for (const perPage of [1, 2, 5, 10, 20, 25, 40, 50, 100]) {
        for (const page of [1, 2, 3, 7, 10, 11, 20, 63, 500]) {
          const block = pageBlockOf({ page, perPage })!;
          const answer = apiPage(total, block.page!, PAGE_BLOCK_ROWS);
          const cut = pageFromBlock(answer, { page, perPage });
          expect(cut, `${total} rows, page ${page} of ${perPage}`).toEqual(apiPage(total, page, perPage));
        }
      }
    }
  });

  it("an answer that cannot give the page gives none, and the page is asked for itself", () => {
    // Not paged as asked: a bare list, or another per-page.
    expect(pageFromBlock({ items: [1, 2, 3], meta: { totalCount: 3, pageCount: 1, currentPage: 1, perPage: 20 } }, { page: 1, perPage: 20 })).toBeNull();
    // The rows moved on between the calls: the block that came back is not the page's.
    expect(pageFromBlock(apiPage(450, 1, PAGE_BLOCK_ROWS), { page: 11, perPage: 20 })).toBeNull();
  });
});
