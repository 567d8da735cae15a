import "server-only";
import { prisma, type TransactionClient } from "@/lib/db/prisma";
import { auditByActor } from "@/lib/audit/log";
import { SafeError } from "@/lib/errors";
import { assertRecentPassword } from "@/lib/access/recent-auth";
import { sendSecurityNotice } from "./security-notice";
import { sessionEnd, sessionPolicy, type SessionPolicy } from "./session-policy";
import type { Actor } from "@/lib/access/actor";

/**
 * The signed-in person's own sessions. Every function here takes the acting person first and only
 * ever reads or ends that person's sessions: a session id from a form is matched together with
 * the actor's user id, so a crafted id of someone else's session matches nothing. Ending another
 * session needs a recent password (lib/access/recent-auth.ts): a stale cookie must not be able to sign
 * the owner out and keep the account to itself. Signing out everywhere needs none: it ends the
 * caller's own session too.
 */

export interface OpenSession {
  id: string;
  createdAt: Date;
  lastSeenAt: Date;
  /** When it ends if nothing happens: idle timeout or maximum age, whichever is first. */
  endsAt: Date;
  userAgent: string | null;
  ip: string | null;
  current: boolean;
}

/** Most sessions a page lists (a person with more has signed in from many browsers within a month). */
const LIST_LIMIT = 100;

/** The actor's open sessions, this one first, then by last activity (never anyone else's). */
export async function listOpenSessions(actor: Actor, policy: SessionPolicy = sessionPolicy(), now = new Date()): Promise<OpenSession[]> {
  const rows = await prisma.userSession.findMany({
    where: {
      userId: actor.userId,
      revokedAt: null,
      lastSeenAt: { gt: new Date(now.getTime() - policy.idleSeconds * 1000) },
      createdAt: { gt: new Date(now.getTime() - policy.maxAgeSeconds * 1000) },
    },
    orderBy: [{ lastSeenAt: "desc" }, { createdAt: "desc" }],
    select: { id: true, createdAt: true, lastSeenAt: true, revokedAt: true, userAgent: true, ip: true },
    take: LIST_LIMIT,
  });
  const sessions = rows.map(({ revokedAt, ...row }) => ({
    ...row,
    endsAt: sessionEnd({ ...row, revokedAt }, policy).at,
    current: row.id === actor.sessionId,
  }));
  return [...sessions.filter((s) => s.current), ...sessions.filter((s) => !s.current)];
}

export const SESSION_ALREADY_ENDED_MESSAGE = "That session has already ended.";
export const END_THIS_SESSION_MESSAGE = "This is the session you are using: sign out instead.";

/**
 * Ends one of the actor's other sessions: that browser is signed out at its next request. An id
 * that is not an open session of the actor (already ended, someone else's, made up) gets the same
 * answer, so the answer tells nothing about other people's sessions.
 */
export async function endSession(actor: Actor, sessionId: string, meta: { ip: string }): Promise<void> {
  assertRecentPassword(actor);
  if (sessionId === actor.sessionId) throw new SafeError(END_THIS_SESSION_MESSAGE, "session_is_current");
  await prisma.$transaction(async (tx) => {
    const ended = await tx.userSession.updateMany({
      where: { id: sessionId, userId: actor.userId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    if (ended.count === 0) throw new SafeError(SESSION_ALREADY_ENDED_MESSAGE, "session_not_found");
    await auditByActor(actor, { action: "auth.session_ended", target: sessionId, ip: meta.ip }, tx);
  });
  await sendSecurityNotice(actor, "session-ended", meta);
}

/** "Sign out of other sessions": every session of the actor but this one ends. Returns how many. */
export async function endOtherSessions(actor: Actor, meta: { ip: string }): Promise<number> {
  assertRecentPassword(actor);
  const ended = await prisma.$transaction(async (tx) => {
    const ended = await tx.userSession.updateMany({
      where: { userId: actor.userId, revokedAt: null, id: { not: actor.sessionId } },
      data: { revokedAt: new Date() },
    });
    await auditByActor(actor, { action: "auth.other_sessions_ended", ip: meta.ip, metadata: { sessions: ended.count } }, tx);
    return ended.count;
  });
  if (ended > 0) await sendSecurityNotice(actor, "other-sessions-ended", meta);
  return ended;
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
