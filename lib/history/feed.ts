import "server-only";
import type { Actor } from "@/lib/access/actor";
import { prisma } from "@/lib/db/prisma";
import type { Prisma } from "@/lib/generated/prisma/client";
import { NotFoundError } from "@/lib/errors";
import { visibleText, visibleTextIn } from "@/lib/text/invisible-characters";
import { HistoryAccessError, historyAccess, requireHistoryReader, type HistoryRefusalReason, type TrackedAccount } from "./access";
import { describeChange, subjectOf, whatChanged, type DescribedChange } from "./describe";
import { FEED_PAGE_SIZE, type FeedFilters } from "./feed-params";
import type { RecordKind } from "./records";

/**
 * Reading change history: the team's Changes feed, a record's timeline, and the marks on listing
 * rows. Every read is bounded to the actor's team (a crafted id from another team finds nothing)
 * and to the trackers the actor may read (lib/history/access.ts: owners and admins, and members
 * whose own credential reads the tracked account).
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
  /** The team tracks something (false: nothing is tracked yet). */
  tracking: boolean;
  /** Tracked accounts of the team whose history the actor may read (what `entries` come from). */
  readable: TrackedAccount[];
  /** Tracked accounts of the team whose history the actor may not read (not in `entries`). */
  refused: TrackedAccount[];
  /** Why they are refused; null when nothing is. */
  refusedReason: HistoryRefusalReason | null;
}

const DAY_MS = 86_400_000;

function whereOf(teamId: string, trackerIds: readonly string[], filters: FeedFilters): Prisma.SetupChangeWhereInput {
  const and: Prisma.SetupChangeWhereInput[] = [{ teamId, trackerId: { in: [...trackerIds] } }];
  // A group's changes: its own, its webhooks', and a webhook moved out of it.
  if (filters.group !== null) {
    and.push({
      OR: [
        { groupId: filters.group, kind: { in: ["group", "webhook"] } },
        { field: "group_id", before: { equals: filters.group } },
      ],
    });
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

/**
 * The Changes feed: the changes of every tracker of the team the actor may read, filtered. The
 * trackers they may not read are named in `refused`, with the reason, and none of their changes
 * is counted or listed.
 */
export async function listChanges(actor: Pick<Actor, "teamId" | "userId">, filters: FeedFilters): Promise<FeedPage> {
  const access = await historyAccess(actor);
  const refusal = { readable: access.readable, refused: access.refused, refusedReason: access.reason };
  const tracking = access.readable.length + access.refused.length > 0;
  if (access.readable.length === 0) return { entries: [], total: 0, page: 1, pageCount: 1, tracking, ...refusal };
  const where = whereOf(
    actor.teamId,
    access.readable.map((tracker) => tracker.id),
    filters,
  );
  const total = await prisma.setupChange.count({ where });
  const pageCount = Math.max(1, Math.ceil(total / FEED_PAGE_SIZE));
  const page = Math.min(filters.page, pageCount);
  const rows = await prisma.setupChange.findMany({
    where,
    orderBy: [{ seenAt: "desc" }, { kind: "asc" }, { recordId: "asc" }, { field: "asc" }],
    skip: (page - 1) * FEED_PAGE_SIZE,
    take: FEED_PAGE_SIZE,
    include: { tracker: { select: { accountLabel: true } } },
  });
  return { entries: rows.map(entryOf), total, page, pageCount, tracking, ...refusal };
}

/**
 * A group's timeline: its own changes and its webhooks' over the last `days`, newest first. Throws
 * HistoryAccessError when the actor may not read this tracker (NotFoundError: not their team's).
 */
export async function groupTimeline(
  actor: Pick<Actor, "teamId" | "userId">,
  trackerId: string,
  groupId: number,
  options: { days?: number; limit?: number } = {},
): Promise<FeedEntry[]> {
  await requireHistoryReader(actor, trackerId);
  const since = new Date(Date.now() - (options.days ?? 30) * DAY_MS);
  const rows = await prisma.setupChange.findMany({
    where: {
      teamId: actor.teamId,
      trackerId,
      seenAt: { gte: since },
      OR: [
        { groupId, kind: { in: ["group", "webhook"] } },
        { field: "group_id", before: { equals: groupId } },
      ],
    },
    orderBy: [{ seenAt: "desc" }, { kind: "asc" }, { recordId: "asc" }, { field: "asc" }],
    take: options.limit ?? 200,
    include: { tracker: { select: { accountLabel: true } } },
  });
  return rows.map(entryOf);
}

/**
 * Which of these records changed after `since` (the rows of a listing page, marked "changed since
 * you last looked"). One indexed query over at most a page of ids. Nothing is marked for a tracker
 * the actor may not read: a mark says the record changed, which is history too.
 */
export async function changedSince(
  actor: Pick<Actor, "teamId" | "userId">,
  trackerId: string,
  kind: RecordKind,
  ids: readonly number[],
  since: Date,
): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const readable = await requireHistoryReader(actor, trackerId).then(
    () => true,
    (error: unknown) => {
      if (error instanceof HistoryAccessError || error instanceof NotFoundError) return false;
      throw error;
    },
  );
  if (!readable) return new Set();
  const rows = await prisma.setupChange.findMany({
    where:
      kind === "group"
        ? { teamId: actor.teamId, trackerId, seenAt: { gt: since }, groupId: { in: [...ids] }, kind: { in: ["group", "webhook"] } }
        : { teamId: actor.teamId, trackerId, seenAt: { gt: since }, kind, recordId: { in: [...ids] } },
    select: { recordId: true, groupId: true },
    distinct: kind === "group" ? ["groupId"] : ["recordId"],
  });
  return new Set(rows.map((row) => (kind === "group" ? row.groupId! : row.recordId)));
}
