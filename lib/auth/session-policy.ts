import { sessionEnv } from "@/lib/env";

/**
 * How long a session lasts. A session (one signed-in browser, a UserSession row) is open while:
 *
 * - it was not ended (revokedAt: signing out, "end session", "sign out of other sessions",
 *   "sign out everywhere", a password change, removal from a team), and
 * - it has been used within `idleSeconds` (lastSeenAt: AUTH_SESSION_IDLE_SECONDS, 7 days), and
 * - it was signed in less than `maxAgeSeconds` ago (createdAt: AUTH_SESSION_MAX_AGE_SECONDS, 30
 *   days; also the session cookie's lifetime).
 *
 * The server decides, on every request, in the one statement that reads the session
 * (actorForSession in lib/auth/session.ts); this module is the same rule in TypeScript, for the
 * sessions page, the retention job and the tests, which check that both agree.
 */
export interface SessionPolicy {
  idleSeconds: number;
  maxAgeSeconds: number;
}

export function sessionPolicy(): SessionPolicy {
  const env = sessionEnv();
  return { idleSeconds: env.AUTH_SESSION_IDLE_SECONDS, maxAgeSeconds: env.AUTH_SESSION_MAX_AGE_SECONDS };
}

/**
 * How stale lastSeenAt may get before a page view writes it again: a twelfth of the idle timeout,
 * at most five minutes. Writing it on every request would cost a write per page view; this way a
 * session is judged idle at most that much early (5 minutes of 7 days; 75 s of 15 minutes).
 */
export function lastSeenWriteIntervalSeconds(policy: SessionPolicy): number {
  return Math.max(1, Math.min(5 * 60, Math.floor(policy.idleSeconds / 12)));
}

export interface SessionTimes {
  createdAt: Date;
  lastSeenAt: Date;
  revokedAt: Date | null;
}

export type SessionEndReason = "revoked" | "idle" | "expired";

/** When the session ends (or ended), and why: the earliest of being ended, going idle and expiring. */
export function sessionEnd(session: SessionTimes, policy: SessionPolicy): { at: Date; reason: SessionEndReason } {
  const idleAt = session.lastSeenAt.getTime() + policy.idleSeconds * 1000;
  const expiresAt = session.createdAt.getTime() + policy.maxAgeSeconds * 1000;
  const candidates: { at: number; reason: SessionEndReason }[] = [
    { at: idleAt, reason: "idle" },
    { at: expiresAt, reason: "expired" },
  ];
  if (session.revokedAt) candidates.push({ at: session.revokedAt.getTime(), reason: "revoked" });
  const first = candidates.reduce((a, b) => (b.at < a.at ? b : a));
  return { at: new Date(first.at), reason: first.reason };
}

/** Whether the session still stands at `now`: the rule actorForSession applies in SQL. */
export function isSessionOpen(session: SessionTimes, now: Date, policy: SessionPolicy): boolean {
  return session.revokedAt === null && now.getTime() < sessionEnd(session, policy).at.getTime();
}
