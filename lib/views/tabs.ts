import "server-only";
import type { Actor } from "@/lib/access/actor";
import { prisma } from "@/lib/db/prisma";
import { Prisma } from "@/lib/generated/prisma/client";
import { MORE_VIEWS_PER_REQUEST, VIEW_TABS_SHOWN } from "./limits";
import { viewIdSchema, type ListingPage } from "./validation";
import { toViewSummary, viewHref, viewRowColumns, visibleViewsWhere, type ViewRow, type ViewSummary } from "./views";

/**
 * The saved views above a listing page: the person's favourites, then the views they open most, at
 * most VIEW_TABS_SHOWN tabs; the rest are listed by "More" (listMoreViews), loaded when it opens.
 * A team with hundreds of views thus costs each page view a handful of rows, not all of them
 * (issue 24, finding 3).
 *
 * "Most used" is per person (SavedViewUsage), counted in occasions: an opening counts once per
 * USAGE_INTERVAL, so paging or sorting inside a view does not count again.
 */

/** Openings of one view by one person closer together than this are one occasion. */
const USAGE_INTERVAL = Prisma.sql`interval '30 minutes'`;

/**
 * The views the actor sees on `page`, each with its rank as a tab: favourites, then most used, then
 * most recently used, then personal before team, by name. One definition for the tabs and "More",
 * so that "More" lists exactly the views past the tabs.
 */
function rankedViews(actor: Actor, page: ListingPage): Prisma.Sql {
  return Prisma.sql`ranked AS (
      SELECT ${viewRowColumns(actor)},
             row_number() OVER (
               ORDER BY EXISTS (SELECT 1 FROM "SavedViewFavourite" AS f WHERE f."viewId" = v."id" AND f."userId" = ${actor.userId}) DESC,
                        COALESCE(u."useCount", 0) DESC, u."lastUsedAt" DESC NULLS LAST, v."scope" ASC, v."name" ASC, v."id" ASC
             ) AS "rank"
      FROM "SavedView" AS v
      LEFT JOIN "User" AS o ON o."id" = v."ownerId"
      LEFT JOIN "SavedViewUsage" AS u ON u."viewId" = v."id" AND u."userId" = ${actor.userId}
      WHERE ${visibleViewsWhere(actor, page)}
    )`;
}

export interface ViewTabsData {
  /** The tabs: the top VIEW_TABS_SHOWN, plus the person's default and the requested view wherever they rank. */
  views: ViewSummary[];
  /** Every view the person sees on this page. */
  total: number;
  /** How many are under "More" (those ranked past the tabs). */
  more: number;
}

export interface TabsRequest {
  /** The view the address names (`?view=ID`): always returned when the person may see it, and counted as used. */
  requestedId: string | null;
  /** A bare address: the person's default view opens, and counts as used. */
  opensDefault: boolean;
}

/**
 * Another query of the same page view sent in the tabs' statement, so that it costs no round trip of
 * its own (issue 38: a listing view's shared answer, lib/listing-page/resolve.ts). Its columns are
 * added to every row the statement returns (one row at least); `read` gets those rows. Its column
 * names must differ from a view's.
 */
export interface TabsRider<T> {
  sql: Prisma.Sql;
  read: (rows: readonly Record<string, unknown>[]) => T;
}

/**
 * The tabs of a listing page in ONE statement (a listing page view has two round trips: see
 * tests/listing/page-view-queries.db.test.ts): the ranked views, and the usage of the view being
 * opened, written by a data-modifying WITH in the same statement (at most once per USAGE_INTERVAL;
 * only a view this person may see on this page).
 */
export async function listViewTabs(actor: Actor, page: ListingPage, request: TabsRequest): Promise<ViewTabsData>;
export async function listViewTabs<T>(actor: Actor, page: ListingPage, request: TabsRequest, rider: TabsRider<T>): Promise<ViewTabsData & { rider: T }>;
export async function listViewTabs<T>(actor: Actor, page: ListingPage, request: TabsRequest, rider?: TabsRider<T>): Promise<ViewTabsData & { rider?: T }> {
  const requested = viewIdSchema.safeParse(request.requestedId);
  const requestedId = requested.success ? requested.data : null;
  const opened = requestedId
    ? Prisma.sql`${requestedId}`
    : request.opensDefault
      ? Prisma.sql`(SELECT d."viewId" FROM "UserDefaultView" AS d WHERE d."userId" = ${actor.userId} AND d."page" = ${page})`
      : null;
  const recordUse = opened
    ? Prisma.sql`recorded AS (
        INSERT INTO "SavedViewUsage" AS s ("userId", "viewId", "useCount", "lastUsedAt")
        SELECT ${actor.userId}, v."id", 1, (now() AT TIME ZONE 'UTC')
        FROM "SavedView" AS v
        WHERE v."id" = ${opened} AND ${visibleViewsWhere(actor, page)}
        ON CONFLICT ("userId", "viewId") DO UPDATE SET "useCount" = s."useCount" + 1, "lastUsedAt" = EXCLUDED."lastUsedAt"
        WHERE s."lastUsedAt" < EXCLUDED."lastUsedAt" - ${USAGE_INTERVAL}
      ),`
    : Prisma.empty;
  const shown = Prisma.sql`WITH ${recordUse} ${rankedViews(actor, page)},
    counted AS (SELECT *, (count(*) OVER ())::integer AS "total" FROM ranked),
    shown AS (SELECT * FROM counted WHERE "rank" <= ${VIEW_TABS_SHOWN} OR "isDefault" OR "id" = ${requestedId})`;
  // With a rider: one row at least (no views: a row of NULL view columns), each with its columns.
  type ShownRow = ViewRow & { rank: bigint; total: number };
  // Rows of a rider's statement may have no view in them (id NULL): they carry only its columns.
  const rows = rider
    ? await prisma.$queryRaw<(Record<string, unknown> & { id: string | null })[]>`
        ${shown}, rider AS (${rider.sql})
        SELECT shown.*, rider.* FROM (SELECT 1) AS one LEFT JOIN shown ON true LEFT JOIN rider ON true
        ORDER BY shown."rank"`
    : await prisma.$queryRaw<ShownRow[]>`${shown} SELECT * FROM shown ORDER BY "rank"`;
  const viewRows = (rows as (Record<string, unknown> & { id: string | null })[]).filter((row) => row.id !== null) as unknown as ShownRow[];
  const total = viewRows[0]?.total ?? 0;
  return {
    views: viewRows.map((row) => toViewSummary(actor, row)),
    total,
    more: Math.max(0, total - VIEW_TABS_SHOWN),
    ...(rider ? { rider: rider.read(rows) } : {}),
  };
}

/** One view in the "More" list. */
export interface MoreView {
  id: string;
  name: string;
  href: string;
  scope: "PERSONAL" | "TEAM";
  isFavourite: boolean;
  isDefault: boolean;
}

export interface MoreViewsPage {
  views: MoreView[];
  /** Views under "More" that match the search. */
  total: number;
  /** Where the next answer starts; null at the end. */
  nextOffset: number | null;
}

/**
 * The views of a page that are not among its tabs (ranked past VIEW_TABS_SHOWN), whose name
 * contains `search` (case-insensitive; empty: all), MORE_VIEWS_PER_REQUEST at a time from `offset`,
 * favourites first, then personal, then team, by name. For the actor only: the same visibility as
 * everywhere (visibleViewsWhere).
 */
export async function listMoreViews(actor: Actor, page: ListingPage, { search, offset }: { search: string; offset: number }): Promise<MoreViewsPage> {
  const pattern = `%${search.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  const rows = await prisma.$queryRaw<(ViewRow & { total: number })[]>`
    WITH ${rankedViews(actor, page)}
    SELECT *, (count(*) OVER ())::integer AS "total" FROM ranked
    WHERE "rank" > ${VIEW_TABS_SHOWN} AND "name" ILIKE ${pattern}
    ORDER BY "isFavourite" DESC, "scope" ASC, "name" ASC, "id" ASC
    OFFSET ${offset} LIMIT ${MORE_VIEWS_PER_REQUEST}`;
  // (Asked past the end, there is no row to carry the count: an empty page, and no next one.)
  const total = rows[0]?.total ?? 0;
  const views = rows.map((row) => {
    const view = toViewSummary(actor, row);
    return { id: view.id, name: view.name, href: viewHref(view), scope: view.scope, isFavourite: view.isFavourite, isDefault: view.isDefault };
  });
  return { views, total, nextOffset: offset + views.length < total ? offset + views.length : null };
}
