import "server-only";
import { prisma } from "@/lib/db/prisma";
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
