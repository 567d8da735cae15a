import "server-only";
import { prisma, type TransactionClient } from "@/lib/db/prisma";
import { auditByActor } from "@/lib/audit/log";
import { SESSION_MAX_AGE_SECONDS } from "./options";
import type { Actor } from "./session";

/** The actor's own open sessions, newest first (never anyone else's). */
export async function listOpenSessions(actor: Actor) {
  return prisma.userSession.findMany({
    where: { userId: actor.userId, revokedAt: null, createdAt: { gte: new Date(Date.now() - SESSION_MAX_AGE_SECONDS * 1000) } },
    orderBy: { createdAt: "desc" },
    select: { id: true, createdAt: true, lastSeenAt: true, userAgent: true },
    take: 50,
  });
}

/**
 * Ends every session of a user at its next request: the session version moves on (so no cookie
 * issued before matches) and every open session row is revoked. Inside the caller's transaction.
 */
export async function endAllSessions(tx: TransactionClient, userId: string): Promise<void> {
  await tx.user.update({ where: { id: userId }, data: { sessionVersion: { increment: 1 } } });
  await tx.userSession.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: new Date() } });
}

/** "Sign out of all sessions": every session of the actor ends, this one included. */
export async function signOutEverywhere(actor: Actor, meta: { ip: string }): Promise<void> {
  await prisma.$transaction(async (tx) => {
    await endAllSessions(tx, actor.userId);
    await auditByActor(actor, { action: "auth.sign_out_everywhere", ip: meta.ip }, tx);
  });
}
