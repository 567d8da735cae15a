import "server-only";
import type { Actor } from "@/lib/auth/session";
import { prisma } from "@/lib/db/prisma";
import { requireManager } from "./access";

export const AUDIT_PAGE_SIZE = 50;

export interface AuditRecord {
  id: string;
  createdAt: Date;
  action: string;
  actorEmail: string | null;
  target: string | null;
  ip: string | null;
  /** Flat, display-ready details (ids, names, outcomes; never a secret: writers are held to that). */
  details: { label: string; value: string }[];
}

export interface AuditPage {
  records: AuditRecord[];
  page: number;
  pageCount: number;
  totalCount: number;
}

/** Keys a writer must never use; dropped here as a second line of defence. */
const NEVER_SHOWN = /secret|password|token|ciphertext|authorization/i;

function flatten(metadata: unknown): { label: string; value: string }[] {
  if (!metadata || typeof metadata !== "object" || Array.isArray(metadata)) return [];
  return Object.entries(metadata as Record<string, unknown>)
    .filter(([key, value]) => value !== null && value !== undefined && !NEVER_SHOWN.test(key))
    .map(([key, value]) => ({ label: key, value: typeof value === "string" ? value : JSON.stringify(value) }));
}

/** The team's audit log, newest first, a page at a time. Owners and admins only. */
export async function listAuditLog(actor: Actor, input: { page?: number } = {}): Promise<AuditPage> {
  return prisma.$transaction(async (tx) => {
    await requireManager(tx, actor);
    const totalCount = await tx.auditLog.count({ where: { teamId: actor.teamId } });
    const pageCount = Math.max(1, Math.ceil(totalCount / AUDIT_PAGE_SIZE));
    const page = Math.min(Math.max(1, Math.trunc(input.page ?? 1) || 1), pageCount);
    const rows = await tx.auditLog.findMany({
      where: { teamId: actor.teamId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (page - 1) * AUDIT_PAGE_SIZE,
      take: AUDIT_PAGE_SIZE,
    });
    return {
      page,
      pageCount,
      totalCount,
      records: rows.map((row) => ({
        id: row.id,
        createdAt: row.createdAt,
        action: row.action,
        actorEmail: row.actorEmail,
        target: row.target,
        ip: row.ip,
        details: flatten(row.metadata),
      })),
    };
  });
}
