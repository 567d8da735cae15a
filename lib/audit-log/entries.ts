import "server-only";
import type { Actor } from "@/lib/access/actor";
import { prisma, type TransactionClient } from "@/lib/db/prisma";
import type { Prisma } from "@/lib/generated/prisma/client";
import { actionLabel, actionsOfFilter, describeAuditRecord, sentenceText, type SentencePart } from "@/lib/audit-log/describe";
import { dayRange, type AuditFilters, type ParsedAuditFilters } from "@/lib/audit-log/filters";
import { requireManager } from "@/lib/access/guards";

export const AUDIT_PAGE_SIZE = 50;
/** Beyond this many matching entries the CSV is refused with a request to narrow the dates. */
export const AUDIT_EXPORT_MAX = 50_000;

/** Someone the log can be filtered by: a member now, or a former one who appears in the log. */
export interface AuditPerson {
  id: string;
  name: string;
  email: string;
  current: boolean;
}

export interface AuditRecord {
  id: string;
  createdAt: Date;
  action: string;
  /** The action in words ("Changed a role"). */
  actionLabel: string;
  actorName: string | null;
  actorEmail: string | null;
  /** The record as a sentence with names; never an id or a metadata key. */
  sentence: SentencePart[];
  text: string;
  ip: string | null;
}

export interface AuditPage {
  records: AuditRecord[];
  page: number;
  pageCount: number;
  totalCount: number;
  /** The filters applied (a person not of this team, for one, is dropped). */
  filters: AuditFilters;
  /** What was ignored in the address, and why. */
  notices: string[];
  people: AuditPerson[];
}

type Row = Prisma.AuditLogGetPayload<object>;

const USER_TARGET = "user:";

function subjectIdOf(row: Pick<Row, "target">): string | null {
  return row.target?.startsWith(USER_TARGET) ? row.target.slice(USER_TARGET.length) : null;
}

function metadataEmail(metadata: unknown): string | null {
  if (!metadata || typeof metadata !== "object" || Array.isArray(metadata)) return null;
  const email = (metadata as Record<string, unknown>).email;
  return typeof email === "string" && email !== "" ? email : null;
}

/**
 * The team's people as the log knows them: today's members, and everyone else who acted in the
 * team's log or was its subject (people who left are still named). Only ids from this team's own
 * rows are looked up, so nobody from another team can appear.
 */
async function peopleOf(tx: TransactionClient, teamId: string): Promise<AuditPerson[]> {
  // One statement: the members, and the users named by the team's own rows as who acted or whom it
  // was about (a target is `user:<id>`).
  const rows = await tx.$queryRaw<AuditPerson[]>`
    SELECT u."id", u."name", u."email", (m."userId" IS NOT NULL) AS "current"
    FROM "User" AS u
    LEFT JOIN "Membership" AS m ON m."userId" = u."id" AND m."teamId" = ${teamId}
    WHERE m."userId" IS NOT NULL
       OR u."id" IN (SELECT a."actorId" FROM "AuditLog" AS a WHERE a."teamId" = ${teamId} AND a."actorId" IS NOT NULL)
       OR u."id" IN (
            SELECT substr(a."target", ${USER_TARGET.length + 1}::integer) FROM "AuditLog" AS a
            WHERE a."teamId" = ${teamId} AND a."target" LIKE ${`${USER_TARGET}%`}
          )`;
  const byName = (a: AuditPerson, b: AuditPerson) => a.name.localeCompare(b.name, "en") || a.email.localeCompare(b.email, "en");
  // Today's members first, then the people who left.
  return [...rows.filter((p) => p.current).sort(byName), ...rows.filter((p) => !p.current).sort(byName)];
}

/** Drops a person the team's log does not know (another team's, or made up), with a notice. */
function applicableFilters(parsed: ParsedAuditFilters, people: AuditPerson[]): { filters: AuditFilters; notices: string[] } {
  const notices = [...parsed.notices];
  let { person } = parsed.filters;
  if (person && !people.some((p) => p.id === person)) {
    notices.push("That person is not in this team's log, so the person filter was ignored.");
    person = null;
  }
  return { filters: { ...parsed.filters, person }, notices };
}

function whereOf(teamId: string, filters: AuditFilters): Prisma.AuditLogWhereInput {
  // The team is always the first condition: no filter can widen the log beyond it.
  const where: Prisma.AuditLogWhereInput = { teamId };
  if (filters.person) where.OR = [{ actorId: filters.person }, { target: `${USER_TARGET}${filters.person}` }];
  const actions = filters.action ? actionsOfFilter(filters.action) : null;
  if (actions) where.action = { in: actions };
  if (filters.from || filters.to) where.createdAt = dayRange(filters.from, filters.to);
  return where;
}

function toRecord(row: Row, people: Map<string, AuditPerson>): AuditRecord {
  const actor = row.actorId ? people.get(row.actorId) : undefined;
  const subjectId = subjectIdOf(row);
  const subject = subjectId ? people.get(subjectId) : undefined;
  // A person whose account is gone is named by the address the record kept, or not at all.
  const actorName = actor?.name ?? row.actorEmail ?? (row.actorId ? "A former member" : null);
  const subjectName = subject?.name ?? metadataEmail(row.metadata) ?? (subjectId && subjectId === row.actorId ? actorName : null);
  const sentence = describeAuditRecord({ action: row.action, metadata: row.metadata, actorName, actorEmail: row.actorEmail, subjectName });
  return {
    id: row.id,
    createdAt: row.createdAt,
    action: row.action,
    actionLabel: actionLabel(row.action),
    actorName: actor?.name ?? null,
    actorEmail: actor?.email ?? row.actorEmail,
    sentence,
    text: sentenceText(sentence),
    ip: row.ip,
  };
}

const NEWEST_FIRST = [{ createdAt: "desc" as const }, { id: "desc" as const }];

/**
 * The team's audit log, newest first (ties by id), 50 entries a page, filtered by person (who did
 * it, or whom it was about), action or group of actions, and UTC days. Owners and admins only: the
 * role is the one the database has now, not the session's.
 */
export async function listAuditLog(actor: Actor, input: ParsedAuditFilters | { page?: number } = {}): Promise<AuditPage> {
  const parsed: ParsedAuditFilters = "filters" in input ? input : { filters: { person: null, action: null, from: null, to: null, page: input.page ?? 1 }, notices: [] };
  return prisma.$transaction(async (tx) => {
    await requireManager(tx, actor);
    const people = await peopleOf(tx, actor.teamId);
    const { filters, notices } = applicableFilters(parsed, people);
    const where = whereOf(actor.teamId, filters);
    const totalCount = await tx.auditLog.count({ where });
    const pageCount = Math.max(1, Math.ceil(totalCount / AUDIT_PAGE_SIZE));
    let page = Math.max(1, Math.trunc(filters.page) || 1);
    if (page > pageCount) {
      if (totalCount > 0) notices.push(`There is no page ${page.toLocaleString("en-US")}: this is the last page, ${pageCount}.`);
      page = pageCount;
    }
    const rows = await tx.auditLog.findMany({ where, orderBy: NEWEST_FIRST, skip: (page - 1) * AUDIT_PAGE_SIZE, take: AUDIT_PAGE_SIZE });
    const byId = new Map(people.map((p) => [p.id, p]));
    return { page, pageCount, totalCount, filters: { ...filters, page }, notices, people, records: rows.map((row) => toRecord(row, byId)) };
  });
}

export type AuditExport = { ok: true; records: AuditRecord[]; notices: string[] } | { ok: false; message: string };

/** Every entry the filters match (no paging), for the CSV; same authorisation as the page. */
export async function exportAuditLog(actor: Actor, parsed: ParsedAuditFilters): Promise<AuditExport> {
  return prisma.$transaction(
    async (tx) => {
      await requireManager(tx, actor);
      const people = await peopleOf(tx, actor.teamId);
      const { filters, notices } = applicableFilters(parsed, people);
      const where = whereOf(actor.teamId, filters);
      const totalCount = await tx.auditLog.count({ where });
      if (totalCount > AUDIT_EXPORT_MAX) {
        return {
          ok: false as const,
          message: `${totalCount.toLocaleString("en-US")} entries match, more than the ${AUDIT_EXPORT_MAX.toLocaleString("en-US")} a file may hold: choose a shorter date range.`,
        };
      }
      const rows = await tx.auditLog.findMany({ where, orderBy: NEWEST_FIRST });
      const byId = new Map(people.map((p) => [p.id, p]));
      return { ok: true as const, notices, records: rows.map((row) => toRecord(row, byId)) };
    },
    { timeout: 30_000 },
  );
}
