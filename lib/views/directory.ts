import "server-only";
import type { Actor } from "@/lib/access/actor";
import { prisma } from "@/lib/db/prisma";
import { pageNumberParam, pageSearchParams, type PageSearchParams } from "@/lib/page-search-params";
import { VIEWS_PER_PAGE } from "./limits";
import { LISTING_PAGES, type ListingPage } from "./validation";
import { toViewSummary, viewRowColumns, visibleViewsWhere, type ViewRow, type ViewSummary } from "./views";

/**
 * /views, a page at a time (issue 24, finding 3: a team's 800 views made it 11 MB). The views the
 * actor sees, grouped by listing page, and within each as the tabs show them: favourites, personal,
 * team, by name.
 */

/** A view as /views lists it: with when this person last opened it (null: never). */
export type DirectoryView = ViewSummary & { lastUsedAt: Date | null };

export interface ViewDirectoryPage {
  views: DirectoryView[];
  /** Every view the person sees, and per listing page (a section with none says how to make one). */
  total: number;
  totalByPage: Record<ListingPage, number>;
  /** 1-based; past the last page, the last page. */
  pageNumber: number;
  pageCount: number;
  /** The position of the first view shown, 1-based (0 when there is none). */
  from: number;
  to: number;
}

/** `?page=` of /views, leniently: anything but a whole number from 1 is page 1. */
export function directoryPageNumber(input: URLSearchParams | PageSearchParams): number {
  return pageNumberParam(pageSearchParams(input), 999_999);
}

/** ONE statement for the views, one for the counts (they also say which page is the last). */
export async function listViewDirectory(actor: Actor, requestedPage: number): Promise<ViewDirectoryPage> {
  const counts = await prisma.$queryRaw<{ page: string; count: number }[]>`
    SELECT v."page", count(*)::integer AS "count" FROM "SavedView" AS v WHERE ${visibleViewsWhere(actor)} GROUP BY v."page"`;
  const totalByPage = Object.fromEntries(LISTING_PAGES.map((page) => [page, counts.find((row) => row.page === page)?.count ?? 0])) as Record<ListingPage, number>;
  const total = Object.values(totalByPage).reduce((sum, count) => sum + count, 0);
  const pageCount = Math.max(1, Math.ceil(total / VIEWS_PER_PAGE));
  const pageNumber = Math.min(Math.max(1, Math.floor(requestedPage)), pageCount);
  const offset = (pageNumber - 1) * VIEWS_PER_PAGE;
  const rows =
    total === 0
      ? []
      : await prisma.$queryRaw<(ViewRow & { lastUsedAt: Date | null })[]>`
    SELECT ${viewRowColumns(actor)},
           (SELECT u."lastUsedAt" FROM "SavedViewUsage" AS u WHERE u."viewId" = v."id" AND u."userId" = ${actor.userId}) AS "lastUsedAt"
    FROM "SavedView" AS v
    LEFT JOIN "User" AS o ON o."id" = v."ownerId"
    WHERE ${visibleViewsWhere(actor)}
    ORDER BY array_position(${[...LISTING_PAGES]}::text[], v."page") ASC,
             EXISTS (SELECT 1 FROM "SavedViewFavourite" AS f WHERE f."viewId" = v."id" AND f."userId" = ${actor.userId}) DESC,
             v."scope" ASC, v."name" ASC, v."id" ASC
    OFFSET ${offset} LIMIT ${VIEWS_PER_PAGE}`;
  const views = rows.map((row) => ({ ...toViewSummary(actor, row), lastUsedAt: row.lastUsedAt }));
  return { views, total, totalByPage, pageNumber, pageCount, from: views.length ? offset + 1 : 0, to: offset + views.length };
}
