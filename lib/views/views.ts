import "server-only";
import type { Actor } from "@/lib/access/actor";
import { auditByActor } from "@/lib/audit/log";
import { prisma, type TransactionClient } from "@/lib/db/prisma";
import { SafeError } from "@/lib/errors";
import { Prisma, type SavedView } from "@/lib/generated/prisma/client";
import { viewQueryOf } from "@/lib/listing/href";
import { parseListingSearchParams } from "@/lib/listing/search-params";
import { canManageView, canSeeView } from "./access";
import { assertRoomForView, lockTeamViews } from "./caps";
import { MAX_VIEW_QUERY_LENGTH, VIEW_QUERY_TOO_LONG } from "./limits";
import { viewIdSchema, viewNameSchema, viewPageSchema, viewQuerySchema, viewScopeSchema, type ListingPage } from "./validation";

export interface ViewSummary {
  id: string;
  page: ListingPage;
  name: string;
  query: string;
  scope: "PERSONAL" | "TEAM";
  ownerId: string | null;
  ownerName: string | null;
  isMine: boolean;
  canManage: boolean;
  isDefault: boolean;
  /** One of this person's favourites (shown first among the page's tabs). */
  isFavourite: boolean;
  updatedAt: Date;
}

const NOT_FOUND = "That view does not exist or is not shared with you.";

/** The URL a view opens: its options plus its id (a recipient who cannot see it still gets the options). */
export function viewHref(view: Pick<SavedView, "id" | "page" | "query">): string {
  const params = new URLSearchParams(view.query);
  params.set("view", view.id);
  return `/${view.page}?${params.toString()}`;
}

/** Re-reads options through the page's schema, so a view only ever stores what the page accepts. */
export function canonicalViewQuery(page: ListingPage, query: string): string {
  const state = parseListingSearchParams(page, new URLSearchParams(query));
  return viewQueryOf({ ...state, page: 1, view: null });
}

/** The options a view will store: canonical, and no longer than MAX_VIEW_QUERY_LENGTH once canonical. */
function storableViewQuery(page: ListingPage, query: string): string {
  if (!viewQuerySchema.safeParse(query).success) throw new SafeError(VIEW_QUERY_TOO_LONG, "view_query_too_long");
  const canonical = canonicalViewQuery(page, query);
  if (canonical.length > MAX_VIEW_QUERY_LENGTH) throw new SafeError(VIEW_QUERY_TOO_LONG, "view_query_too_long");
  return canonical;
}

/** A view as the one-statement readers select it (lib/views/tabs.ts, directory.ts and listViews). */
export type ViewRow = {
  id: string;
  teamId: string;
  page: string;
  name: string;
  query: string;
  scope: "PERSONAL" | "TEAM";
  ownerId: string | null;
  ownerName: string | null;
  isDefault: boolean;
  isFavourite: boolean;
  updatedAt: Date;
};

/**
 * The columns of a ViewRow for `v` (SavedView) joined with `o` (its owner, User), the actor's
 * marks looked up by id. Every reader puts the same WHERE beside it: `visibleViewsWhere`.
 */
export function viewRowColumns(actor: Actor): Prisma.Sql {
  return Prisma.sql`v."id", v."teamId", v."page", v."name", v."query", v."scope"::text AS "scope", v."ownerId", v."updatedAt",
           o."name" AS "ownerName",
           EXISTS (SELECT 1 FROM "UserDefaultView" AS d WHERE d."viewId" = v."id" AND d."userId" = ${actor.userId}) AS "isDefault",
           EXISTS (SELECT 1 FROM "SavedViewFavourite" AS f WHERE f."viewId" = v."id" AND f."userId" = ${actor.userId}) AS "isFavourite"`;
}

/** The views of `v` the actor may see (lib/views/access.ts canSeeView, as SQL): their team's, and their own personal ones. */
export function visibleViewsWhere(actor: Actor, page?: ListingPage): Prisma.Sql {
  const pageFilter = page ? Prisma.sql`AND v."page" = ${viewPageSchema.parse(page)}` : Prisma.empty;
  return Prisma.sql`v."teamId" = ${actor.teamId}
      AND (v."scope" = 'TEAM' OR (v."scope" = 'PERSONAL' AND v."ownerId" = ${actor.userId}))
      ${pageFilter}`;
}

export function toViewSummary(actor: Actor, view: ViewRow): ViewSummary {
  return {
    id: view.id,
    page: view.page as ListingPage,
    name: view.name,
    query: view.query,
    scope: view.scope,
    ownerId: view.ownerId,
    ownerName: view.ownerName,
    isMine: view.ownerId === actor.userId,
    canManage: canManageView(actor, view),
    isDefault: view.isDefault,
    isFavourite: view.isFavourite,
    updatedAt: view.updatedAt,
  };
}

/**
 * Every view the actor can see on a page (or on every page), team ones and their own, in ONE
 * statement: the views, their owner's name, and whether each is this person's default and favourite.
 * (Prisma runs an `include` as one query per relation.) Unpaged: for the command palette and tests;
 * pages read lib/views/tabs.ts (the listing's tabs) and lib/views/directory.ts (/views), which page.
 */
export async function listViews(actor: Actor, page?: ListingPage): Promise<ViewSummary[]> {
  const rows = await prisma.$queryRaw<ViewRow[]>`
    SELECT ${viewRowColumns(actor)}
    FROM "SavedView" AS v
    LEFT JOIN "User" AS o ON o."id" = v."ownerId"
    WHERE ${visibleViewsWhere(actor, page)}
    ORDER BY v."page" ASC, v."scope" ASC, v."name" ASC`;
  return rows.map((view) => toViewSummary(actor, view));
}

/**
 * The order views are shown in everywhere (tabs, /views, the command palette): the person's
 * favourites, then their personal views, then the team's; by name within each.
 */
export function inShowingOrder<T extends Pick<ViewSummary, "isFavourite" | "scope" | "name">>(views: readonly T[]): T[] {
  const rank = (view: T) => (view.isFavourite ? 0 : view.scope === "PERSONAL" ? 1 : 2);
  return [...views].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

/** A view the actor may see, or null (never says whether it exists elsewhere). */
export async function getVisibleView(actor: Actor, viewId: string): Promise<SavedView | null> {
  const id = viewIdSchema.safeParse(viewId);
  if (!id.success) return null;
  const view = await prisma.savedView.findUnique({ where: { id: id.data } });
  return view && canSeeView(actor, view) ? view : null;
}

async function requireManageableView(actor: Actor, viewId: string): Promise<SavedView> {
  const view = await getVisibleView(actor, viewId);
  if (!view) throw new SafeError(NOT_FOUND, "not_found");
  if (!canManageView(actor, view)) {
    throw new SafeError("Only owners and admins (and the person who shared it) can change a team view. You can copy it instead.", "forbidden");
  }
  return view;
}

async function assertNameFree(tx: TransactionClient, actor: Actor, page: string, scope: "PERSONAL" | "TEAM", name: string, exceptId?: string) {
  const clash = await tx.savedView.findFirst({
    where: {
      teamId: actor.teamId,
      page,
      scope,
      name: { equals: name, mode: "insensitive" },
      ...(scope === "PERSONAL" ? { ownerId: actor.userId } : {}),
      ...(exceptId ? { NOT: { id: exceptId } } : {}),
    },
    select: { id: true },
  });
  if (clash) {
    throw new SafeError(scope === "TEAM" ? `Your team already has a view named “${name}”.` : `You already have a view named “${name}”.`, "name_taken");
  }
}

export interface CreateViewInput {
  page: string;
  name: string;
  query: string;
  scope: string;
}

export async function createView(actor: Actor, input: CreateViewInput): Promise<SavedView> {
  const page = viewPageSchema.parse(input.page);
  const name = viewNameSchema.parse(input.name);
  const scope = viewScopeSchema.parse(input.scope);
  const query = storableViewQuery(page, input.query);
  return prisma.$transaction(async (tx) => {
    // Under the team's views lock: the caps' counts and the name check see every save before this one.
    await lockTeamViews(tx, actor.teamId);
    await assertNameFree(tx, actor, page, scope, name);
    await assertRoomForView(tx, actor, { owned: true, shared: scope === "TEAM" });
    const view = await tx.savedView.create({
      data: { teamId: actor.teamId, ownerId: actor.userId, page, name, query, scope },
    });
    if (scope === "TEAM") {
      await auditByActor(actor, { action: "view.shared", target: view.id, metadata: { name, page } }, tx);
    }
    return view;
  });
}

export interface UpdateViewInput {
  name?: string;
  scope?: string;
  /** Replace the options the view names (e.g. "update with the current options"). */
  query?: string;
}

export async function updateView(actor: Actor, viewId: string, input: UpdateViewInput): Promise<SavedView> {
  const view = await requireManageableView(actor, viewId);
  const name = input.name === undefined ? view.name : viewNameSchema.parse(input.name);
  const scope = input.scope === undefined ? view.scope : viewScopeSchema.parse(input.scope);
  const query = input.query === undefined ? view.query : storableViewQuery(view.page as ListingPage, input.query);
  if (scope === "PERSONAL" && view.scope === "TEAM" && view.ownerId !== actor.userId) {
    throw new SafeError("Only the person who shared a team view can make it personal again; you can delete it or copy it.", "forbidden");
  }
  const sharing = scope === "TEAM" && view.scope === "PERSONAL";
  return prisma.$transaction(async (tx) => {
    if (name !== view.name || scope !== view.scope) {
      await lockTeamViews(tx, actor.teamId);
      await assertNameFree(tx, actor, view.page, scope, name, view.id);
      // Sharing adds one to the team's count; the view stays its maker's, so the person's count does not move.
      if (sharing) await assertRoomForView(tx, actor, { owned: false, shared: true });
    }
    const updated = await tx.savedView.update({ where: { id: view.id }, data: { name, scope, query } });
    if (scope === "PERSONAL" && view.scope === "TEAM") {
      // No longer shared: teammates who had it as their default fall back to no default.
      await tx.userDefaultView.deleteMany({ where: { viewId: view.id, NOT: { userId: actor.userId } } });
    }
    if (sharing) {
      await auditByActor(actor, { action: "view.shared", target: view.id, metadata: { name, page: view.page } }, tx);
    }
    return updated;
  });
}

/** What a deletion took away from the person who deleted it: what "Undo" puts back (restoreView). */
export interface DeletedView {
  page: ListingPage;
  name: string;
  query: string;
  scope: "PERSONAL" | "TEAM";
  wasDefault: boolean;
  wasFavourite: boolean;
}

export async function deleteView(actor: Actor, viewId: string): Promise<DeletedView> {
  const view = await requireManageableView(actor, viewId);
  return prisma.$transaction(async (tx) => {
    const [asDefault, asFavourite] = await Promise.all([
      tx.userDefaultView.findFirst({ where: { userId: actor.userId, viewId: view.id }, select: { page: true } }),
      tx.savedViewFavourite.findUnique({ where: { userId_viewId: { userId: actor.userId, viewId: view.id } }, select: { viewId: true } }),
    ]);
    await tx.savedView.delete({ where: { id: view.id } });
    return {
      page: viewPageSchema.parse(view.page),
      name: view.name,
      query: view.query,
      scope: view.scope,
      wasDefault: asDefault !== null,
      wasFavourite: asFavourite !== null,
    };
  });
}

export interface RestoreViewInput {
  page: string;
  name: string;
  query: string;
  scope: string;
  makeDefault: boolean;
  favourite: boolean;
}

/**
 * "Undo" after a deletion: the view again, with its name, scope and options, and the restorer's own
 * default and favourite marks. It is made anew (a new id), in the actor's team, owned by the actor,
 * exactly as saving those options under that name would: the input is only what anyone may save
 * (page, name, options, scope), re-validated here, and never a team, an owner or an id. So a crafted
 * "restore" can do nothing a save could not.
 *
 * Why not a soft delete (a `deletedAt`, undone within N minutes)? Every reader of SavedView (the
 * listing's tabs and default, /views, /views/ID, the copy and name checks, and other features'
 * searches) would have to leave deleted rows out, and one forgotten filter would bring a deleted view
 * back, to a whole team. What a re-creation loses is small and said here: the old id (its links still
 * carry their options, with a notice), and teammates' defaults and favourites of a team view.
 */
export async function restoreView(actor: Actor, input: RestoreViewInput): Promise<SavedView> {
  const view = await createView(actor, input);
  if (input.makeDefault) await setDefaultView(actor, view.page, view.id);
  if (input.favourite) await setViewFavourite(actor, view.id, true);
  return view;
}

/** Marks (or unmarks) a view the actor can see as one of their favourites. */
export async function setViewFavourite(actor: Actor, viewId: string, favourite: boolean): Promise<SavedView> {
  const view = await getVisibleView(actor, viewId);
  if (!view) throw new SafeError(NOT_FOUND, "not_found");
  if (favourite) {
    await prisma.savedViewFavourite.upsert({
      where: { userId_viewId: { userId: actor.userId, viewId: view.id } },
      create: { userId: actor.userId, viewId: view.id },
      update: {},
    });
  } else {
    await prisma.savedViewFavourite.deleteMany({ where: { userId: actor.userId, viewId: view.id } });
  }
  return view;
}

/** A personal copy of any view the actor can see (how members take a team view and change it). */
export async function copyView(actor: Actor, viewId: string, newName?: string): Promise<SavedView> {
  const source = await getVisibleView(actor, viewId);
  if (!source) throw new SafeError(NOT_FOUND, "not_found");
  let name = newName === undefined || newName.trim() === "" ? `${source.name} (copy)` : viewNameSchema.parse(newName);
  if (newName === undefined || newName.trim() === "") {
    // A free "(copy n)" name rather than failing on the second copy: the taken ones in one read.
    const taken = await prisma.savedView.findMany({
      where: { teamId: actor.teamId, page: source.page, scope: "PERSONAL", ownerId: actor.userId, name: { startsWith: `${source.name} (copy`, mode: "insensitive" } },
      select: { name: true },
    });
    const takenNames = new Set(taken.map((view) => view.name.toLowerCase()));
    for (let n = 2; n < 100 && takenNames.has(name.toLowerCase()); n++) name = `${source.name} (copy ${n})`;
    name = viewNameSchema.parse(name.slice(0, 80));
  }
  return createView(actor, { page: source.page, name, query: source.query, scope: "PERSONAL" });
}

/** The actor's default view for a page; null clears it. */
export async function setDefaultView(actor: Actor, page: string, viewId: string | null): Promise<void> {
  const listingPage = viewPageSchema.parse(page);
  if (viewId === null) {
    await prisma.userDefaultView.deleteMany({ where: { userId: actor.userId, page: listingPage } });
    return;
  }
  const view = await getVisibleView(actor, viewId);
  if (!view) throw new SafeError(NOT_FOUND, "not_found");
  if (view.page !== listingPage) throw new SafeError("That view belongs to another page.", "wrong_page");
  await prisma.userDefaultView.upsert({
    where: { userId_page: { userId: actor.userId, page: listingPage } },
    create: { userId: actor.userId, page: listingPage, viewId: view.id },
    update: { viewId: view.id },
  });
}
