import "server-only";
import type { Actor } from "@/lib/access/actor";
import { prisma } from "@/lib/db/prisma";
import { NotFoundError } from "@/lib/errors";
import { INBOX_KIND_INFO, inboxSentence, isInboxKind } from "./kinds";
import type { InboxParams } from "./params";

/**
 * Reading and marking the actor's own inbox. Every query is keyed by the actor's user id and team:
 * an item of someone else (another person, another team) is "not found", as a missing one is.
 */

export const INBOX_PER_PAGE = 25;
export const INBOX_ITEM_NOT_FOUND = "That item is not in your inbox.";

export interface InboxListItem {
  id: string;
  kind: string;
  /** A word or two for the kind ("Approved", "Waits for your review"), to scan the list by. */
  label: string;
  sentence: string;
  detail: string | null;
  planId: string | null;
  createdAt: Date;
  read: boolean;
}

const mine = (actor: Pick<Actor, "userId" | "teamId">) => ({ userId: actor.userId, teamId: actor.teamId });

/** The actor's items, newest first, a page at a time; with the unread count the page heads with. */
export async function listInbox(
  actor: Pick<Actor, "userId" | "teamId">,
  params: InboxParams,
): Promise<{ items: InboxListItem[]; total: number; unread: number; page: number; pageCount: number }> {
  const where = { ...mine(actor), ...(params.show === "unread" ? { readAt: null } : {}) };
  const [total, unread] = await Promise.all([prisma.inboxItem.count({ where }), prisma.inboxItem.count({ where: { ...mine(actor), readAt: null } })]);
  const pageCount = Math.max(1, Math.ceil(total / INBOX_PER_PAGE));
  const page = Math.min(Math.max(1, params.page), pageCount);
  const rows = await prisma.inboxItem.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: (page - 1) * INBOX_PER_PAGE,
    take: INBOX_PER_PAGE,
    select: { id: true, kind: true, planId: true, planTitle: true, actorLabel: true, detail: true, createdAt: true, readAt: true },
  });
  return {
    items: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      label: isInboxKind(row.kind) ? INBOX_KIND_INFO[row.kind].subject : "Update",
      sentence: inboxSentence(row),
      detail: row.detail,
      planId: row.planId,
      createdAt: row.createdAt,
      read: row.readAt !== null,
    })),
    total,
    unread,
    page,
    pageCount,
  };
}

/** Marks one of the actor's items read (again: nothing changes). Another person's item is "not found". */
export async function markInboxItemRead(actor: Pick<Actor, "userId" | "teamId">, itemId: string): Promise<void> {
  const item = await prisma.inboxItem.findFirst({ where: { id: itemId, ...mine(actor) }, select: { readAt: true } });
  if (!item) throw new NotFoundError(INBOX_ITEM_NOT_FOUND);
  if (item.readAt === null) await prisma.inboxItem.updateMany({ where: { id: itemId, ...mine(actor), readAt: null }, data: { readAt: new Date() } });
}

/** Marks every unread item of the actor read; returns how many. */
export async function markAllInboxRead(actor: Pick<Actor, "userId" | "teamId">): Promise<number> {
  const { count } = await prisma.inboxItem.updateMany({ where: { ...mine(actor), readAt: null }, data: { readAt: new Date() } });
  return count;
}
