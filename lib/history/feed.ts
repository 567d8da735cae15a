import "server-only";
import type { Actor } from "@/lib/auth/session";
import { prisma } from "@/lib/db/prisma";
import type { Prisma } from "@/lib/generated/prisma/client";
import { visibleText, visibleTextIn } from "@/lib/text/invisible-characters";
import { describeChange, subjectOf, whatChanged, type DescribedChange } from "./describe";
import { FEED_PAGE_SIZE, type FeedFilters } from "./feed-params";
import type { RecordKind } from "./records";

/**
 * Reading change history: the team's Changes feed, a record's timeline, and the marks on listing
 * rows. Every read is bounded to the actor's team (a crafted id from another team finds nothing).
 */

export interface FeedEntry extends DescribedChange {
  id: string;
  subject: string;
  what: string;
  sentence: string;
  changedBy: string | null;
  changedAt: Date | null;
  seenAt: Date;
  accountLabel: string;
}

export interface FeedPage {
  entries: FeedEntry[];
  total: number;
  page: number;
  pageCount: number;
  /** The team tracks nothing yet. */
  tracking: boolean;
}

const DAY_MS = 86_400_000;

function whereOf(teamId: string, filters: FeedFilters): Prisma.SetupChangeWhereInput {
  const and: Prisma.SetupChangeWhereInput[] = [{ teamId }];
  // A group's changes: its own, its webhooks', and a webhook moved out of it.
  if (filters.group !== null) {
    and.push({ OR: [{ groupId: filters.group, kind: { in: ["group", "webhook"] } }, { field: "group_id", before: { equals: filters.group } }] });
  }
  if (filters.webhook !== null) and.push({ kind: "webhook", recordId: filters.webhook });
  if (filters.event !== null) and.push({ kind: "event", recordId: filters.event });
  if (filters.kind) and.push({ kind: filters.kind });
  if (filters.change) and.push({ change: filters.change });
  if (filters.field) and.push({ field: filters.field });
  if (filters.person) and.push({ changedBy: { contains: filters.person, mode: "insensitive" } });
  if (filters.from) and.push({ seenAt: { gte: new Date(`${filters.from}T00:00:00Z`) } });
  if (filters.to) and.push({ seenAt: { lt: new Date(new Date(`${filters.to}T00:00:00Z`).getTime() + DAY_MS) } });
  return { AND: and };
}

type Row = Prisma.SetupChangeGetPayload<{ include: { tracker: { select: { accountLabel: true } } } }>;

function entryOf(row: Row): FeedEntry {
  // EMS text is made visible where answers are parsed (lib/ems/responses.ts); rows stored before
  // that may still hold a bidi override (`changedBy: "\u202Eevil"`), so what is shown is cleaned too.
  const described: DescribedChange = visibleTextIn({
    kind: row.kind as RecordKind,
    recordId: row.recordId,
    recordName: row.recordName,
    groupId: row.groupId,
    groupName: row.groupName,
    change: row.change as DescribedChange["change"],
    field: row.field,
    before: row.before,
    after: row.after,
  });
  return {
    id: row.id,
    ...described,
    subject: subjectOf(described),
    what: whatChanged(described),
    sentence: describeChange(described),
    changedBy: row.changedBy === null ? null : visibleText(row.changedBy),
    changedAt: row.changedAt,
    seenAt: row.seenAt,
    accountLabel: row.tracker.accountLabel,
  };
}

export async function listChanges(actor: Pick<Actor, "teamId">, filters: FeedFilters): Promise<FeedPage> {
  const where = whereOf(actor.teamId, filters);
  const [total, trackers] = await Promise.all([prisma.setupChange.count({ where }), prisma.changeTracker.count({ where: { teamId: actor.teamId } })]);
  const pageCount = Math.max(1, Math.ceil(total / FEED_PAGE_SIZE));
  const page = Math.min(filters.page, pageCount);
  const rows = await prisma.setupChange.findMany({
    where,
    orderBy: [{ seenAt: "desc" }, { kind: "asc" }, { recordId: "asc" }, { field: "asc" }],
    skip: (page - 1) * FEED_PAGE_SIZE,
    take: FEED_PAGE_SIZE,
    include: { tracker: { select: { accountLabel: true } } },
  });
  return { entries: rows.map(entryOf), total, page, pageCount, tracking: trackers > 0 };
}

/** A group's timeline: its own changes and its webhooks' over the last `days`, newest first. */
export async function groupTimeline(actor: Pick<Actor, "teamId">, trackerId: string, groupId: number, options: { days?: number; limit?: number } = {}): Promise<FeedEntry[]> {
  const since = new Date(Date.now() - (options.days ?? 30) * DAY_MS);
  const rows = await prisma.setupChange.findMany({
    where: {
      teamId: actor.teamId,
      trackerId,
      seenAt: { gte: since },
      OR: [{ groupId, kind: { in: ["group", "webhook"] } }, { field: "group_id", before: { equals: groupId } }],
    },
    orderBy: [{ seenAt: "desc" }, { kind: "asc" }, { recordId: "asc" }, { field: "asc" }],
    take: options.limit ?? 200,
    include: { tracker: { select: { accountLabel: true } } },
  });
  return rows.map(entryOf);
}

/**
 * Which of these records changed after `since` (the rows of a listing page, marked "changed since
 * you last looked"). One indexed query over at most a page of ids.
 */
export async function changedSince(actor: Pick<Actor, "teamId">, trackerId: string, kind: RecordKind, ids: readonly number[], since: Date): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await prisma.setupChange.findMany({
    where: kind === "group"
      ? { teamId: actor.teamId, trackerId, seenAt: { gt: since }, groupId: { in: [...ids] }, kind: { in: ["group", "webhook"] } }
      : { teamId: actor.teamId, trackerId, seenAt: { gt: since }, kind, recordId: { in: [...ids] } },
    select: { recordId: true, groupId: true },
    distinct: kind === "group" ? ["groupId"] : ["recordId"],
  });
  return new Set(rows.map((row) => (kind === "group" ? row.groupId! : row.recordId)));
}
