import "server-only";
import { prisma } from "@/lib/db/prisma";
import { Prisma } from "@/lib/generated/prisma/client";
import { retentionEnv } from "@/lib/env";
import { KNOWN_ADDRESS_DAYS } from "@/lib/auth/throttle";

/**
 * Retention: deletes what the portal no longer needs, once it is older than its configured age.
 *
 * - sign-in and sign-up attempts (AuthAttempt) older than RETENTION_AUTH_ATTEMPTS_DAYS (30), and
 *   never one still inside the throttle's window;
 * - sessions that ended (signed out or ended, gone idle, or past their maximum age: the rule of
 *   lib/auth/session-policy.ts) more than RETENTION_ENDED_SESSIONS_DAYS (30) ago, and never one
 *   signed in within the last 30 days (the throttle treats those addresses as the owner's own);
 * - audit records older than RETENTION_AUDIT_LOG_DAYS (365);
 * - change history (lib/history) older than RETENTION_HISTORY_DAYS (365): per tracker, the newest
 *   checkpoint taken before the cut-off is kept, and the changes it already holds (seen at or before
 *   it), the checkpoints before it and the syncs before it that are left without changes go (never
 *   a tracker's latest sync: Settings shows it). "As of" a date from that checkpoint on works as
 *   before; before it, history has begun there (lib/history/store.ts `stateAsOf`);
 * - change plans that never reached the EMS: drafts untouched for RETENTION_PLAN_DRAFTS_DAYS (30),
 *   and cancelled plans as old with no step applied (their steps go with them); never a plan with
 *   an applied step (its undo needs it), nor one waiting for review or approved;
 * - the EMS caches' leftovers: shared listing answers (lib/ems/answer-cache.ts) fetched, or last
 *   leased, over a day ago (no window serves one that old; they hold encrypted header values, so
 *   they should not linger), and budget usage minutes over a day old (Settings shows the last hour).
 *
 * Safe to run twice at once, and idempotent: the cut-offs are fixed once, from the database's
 * clock, at the start of a run (so nothing that grows old while it runs is touched), and each
 * batch is one statement that deletes at most `batchSize` rows it could lock, skipping rows
 * another run has locked (FOR UPDATE SKIP LOCKED). Every row is therefore deleted by exactly one
 * run, and the counts of two concurrent runs add up to the number of rows that were due.
 * Each batch commits on its own, so no lock is held for long and a stopped run loses nothing.
 */

export interface RetentionPolicy {
  authAttemptsDays: number;
  endedSessionsDays: number;
  auditLogDays: number;
  historyDays: number;
  planDraftsDays: number;
  sessionIdleSeconds: number;
  sessionMaxAgeSeconds: number;
  throttleWindowSeconds: number;
}

export function retentionPolicy(): RetentionPolicy {
  const env = retentionEnv();
  return {
    authAttemptsDays: env.RETENTION_AUTH_ATTEMPTS_DAYS,
    endedSessionsDays: env.RETENTION_ENDED_SESSIONS_DAYS,
    auditLogDays: env.RETENTION_AUDIT_LOG_DAYS,
    historyDays: env.RETENTION_HISTORY_DAYS,
    planDraftsDays: env.RETENTION_PLAN_DRAFTS_DAYS,
    sessionIdleSeconds: env.AUTH_SESSION_IDLE_SECONDS,
    sessionMaxAgeSeconds: env.AUTH_SESSION_MAX_AGE_SECONDS,
    throttleWindowSeconds: env.AUTH_THROTTLE_WINDOW_SECONDS,
  };
}

export interface PruneResult {
  /** Rows this run deleted, per table. */
  deleted: {
    authAttempts: number;
    sessions: number;
    auditLog: number;
    sharedAnswers: number;
    budgetUsage: number;
    historyChanges: number;
    historyCheckpoints: number;
    historySyncs: number;
    plans: number;
  };
  /** The cut-offs it used (UTC), for the log. */
  cutoffs: { authAttempts: string; sessionsEndedBefore: string; sessionsSignedInBefore: string; auditLog: string; caches: string; history: string; plans: string };
  /** false when it stopped early (signal or deadline); the next run goes on where it stopped. */
  complete: boolean;
  ms: number;
}

export interface PruneOptions {
  policy?: RetentionPolicy;
  /** Rows per statement (default 1000). */
  batchSize?: number;
  /** "Now" for the cut-offs; the database's clock by default. */
  now?: Date;
  /** Stops between batches (the job engine stopping). */
  signal?: AbortSignal;
  /** Stops between batches once past this time (a serverless function's time limit). */
  deadline?: number;
}

const DAY = 24 * 60 * 60 * 1000;
/** Age after which the EMS caches' rows are of no use (the longest sharing window is minutes). */
const CACHE_DAYS = 1;

/** A UTC instant as PostgreSQL reads it into Prisma's `timestamp(3)` columns (which hold UTC). */
const iso = (date: Date) => date.toISOString();

export async function pruneExpiredRecords(options: PruneOptions = {}): Promise<PruneResult> {
  const started = Date.now();
  const policy = options.policy ?? retentionPolicy();
  const batchSize = options.batchSize ?? 1000;
  const now = options.now ?? (await databaseNow());
  const at = (ms: number) => new Date(now.getTime() - ms);
  const cutoffs = {
    authAttempts: at(Math.max(policy.authAttemptsDays * DAY, policy.throttleWindowSeconds * 1000)),
    sessionsEndedBefore: at(policy.endedSessionsDays * DAY),
    sessionsSignedInBefore: at(Math.max(policy.endedSessionsDays, KNOWN_ADDRESS_DAYS) * DAY),
    auditLog: at(policy.auditLogDays * DAY),
    caches: at(CACHE_DAYS * DAY),
    history: at(policy.historyDays * DAY),
    plans: at(policy.planDraftsDays * DAY),
  };
  const idleBefore = new Date(cutoffs.sessionsEndedBefore.getTime() - policy.sessionIdleSeconds * 1000);
  const expiredBefore = new Date(cutoffs.sessionsEndedBefore.getTime() - policy.sessionMaxAgeSeconds * 1000);
  const deleted = { authAttempts: 0, sessions: 0, auditLog: 0, sharedAnswers: 0, budgetUsage: 0, historyChanges: 0, historyCheckpoints: 0, historySyncs: 0, plans: 0 };
  // Each tracker's kept checkpoint: the newest one taken at or before the history cut-off.
  const keptCheckpoints = Prisma.sql`
    WITH kept AS (
      SELECT "trackerId", max("takenAt") AS "takenAt" FROM "SetupCheckpoint"
      WHERE "takenAt" <= ${iso(cutoffs.history)}::timestamp GROUP BY "trackerId")`;
  const stop = () => options.signal?.aborted === true || (options.deadline !== undefined && Date.now() >= options.deadline);

  // One table at a time, in batches, until a batch comes back short.
  const drain = async (table: keyof typeof deleted, batch: () => Promise<number>): Promise<boolean> => {
    for (;;) {
      if (stop()) return false;
      const count = await batch();
      deleted[table] += count;
      if (count < batchSize) return true;
    }
  };

  const complete =
    (await drain(
      "authAttempts",
      () =>
        prisma.$executeRaw`
        DELETE FROM "AuthAttempt" WHERE "id" IN (
          SELECT "id" FROM "AuthAttempt" WHERE "createdAt" < ${iso(cutoffs.authAttempts)}::timestamp
          LIMIT ${batchSize} FOR UPDATE SKIP LOCKED)`,
    )) &&
    (await drain(
      "sessions",
      () =>
        prisma.$executeRaw`
        DELETE FROM "UserSession" WHERE "id" IN (
          SELECT "id" FROM "UserSession"
          WHERE "createdAt" < ${iso(cutoffs.sessionsSignedInBefore)}::timestamp
            AND ("revokedAt" < ${iso(cutoffs.sessionsEndedBefore)}::timestamp OR "lastSeenAt" < ${iso(idleBefore)}::timestamp OR "createdAt" < ${iso(expiredBefore)}::timestamp)
          LIMIT ${batchSize} FOR UPDATE SKIP LOCKED)`,
    )) &&
    (await drain(
      "auditLog",
      () =>
        prisma.$executeRaw`
        DELETE FROM "AuditLog" WHERE "id" IN (
          SELECT "id" FROM "AuditLog" WHERE "createdAt" < ${iso(cutoffs.auditLog)}::timestamp
          LIMIT ${batchSize} FOR UPDATE SKIP LOCKED)`,
    )) &&
    // Composite keys: rows picked by ctid, which the locking subquery returns for its own rows.
    (await drain(
      "sharedAnswers",
      () =>
        prisma.$executeRaw`
        DELETE FROM "EmsSharedAnswer" WHERE ctid IN (
          SELECT ctid FROM "EmsSharedAnswer"
          WHERE GREATEST("fetchedAt", "leaseUntil") < ${iso(cutoffs.caches)}::timestamp
          LIMIT ${batchSize} FOR UPDATE SKIP LOCKED)`,
    )) &&
    (await drain(
      "budgetUsage",
      () =>
        prisma.$executeRaw`
        DELETE FROM "EmsBudgetUsage" WHERE ctid IN (
          SELECT ctid FROM "EmsBudgetUsage" WHERE "minute" < ${iso(cutoffs.caches)}::timestamp
          LIMIT ${batchSize} FOR UPDATE SKIP LOCKED)`,
    )) &&
    // History: changes first (the kept checkpoint holds them), then what came before it.
    (await drain(
      "historyChanges",
      () =>
        prisma.$executeRaw`
        ${keptCheckpoints}
        DELETE FROM "SetupChange" WHERE "id" IN (
          SELECT c."id" FROM "SetupChange" c JOIN kept ON kept."trackerId" = c."trackerId"
          WHERE c."seenAt" <= kept."takenAt"
          LIMIT ${batchSize} FOR UPDATE OF c SKIP LOCKED)`,
    )) &&
    (await drain(
      "historyCheckpoints",
      () =>
        prisma.$executeRaw`
        ${keptCheckpoints}
        DELETE FROM "SetupCheckpoint" WHERE "id" IN (
          SELECT k."id" FROM "SetupCheckpoint" k JOIN kept ON kept."trackerId" = k."trackerId"
          WHERE k."takenAt" < kept."takenAt"
          LIMIT ${batchSize} FOR UPDATE OF k SKIP LOCKED)`,
    )) &&
    (await drain(
      "historySyncs",
      () =>
        prisma.$executeRaw`
        ${keptCheckpoints}
        DELETE FROM "SetupSync" WHERE "id" IN (
          SELECT s."id" FROM "SetupSync" s JOIN kept ON kept."trackerId" = s."trackerId"
          WHERE s."startedAt" < kept."takenAt"
            AND NOT EXISTS (SELECT 1 FROM "SetupChange" c WHERE c."syncId" = s."id")
            AND s."id" <> (SELECT l."id" FROM "SetupSync" l WHERE l."trackerId" = s."trackerId" ORDER BY l."startedAt" DESC, l."id" DESC LIMIT 1)
          LIMIT ${batchSize} FOR UPDATE OF s SKIP LOCKED)`,
    )) &&
    (await drain(
      "plans",
      () =>
        prisma.$executeRaw`
        DELETE FROM "ChangePlan" WHERE "id" IN (
          SELECT p."id" FROM "ChangePlan" p
          WHERE p."updatedAt" < ${iso(cutoffs.plans)}::timestamp
            AND (p."status" = 'draft' OR (p."status" = 'cancelled' AND NOT EXISTS (
              SELECT 1 FROM "ChangePlanStep" s WHERE s."planId" = p."id" AND s."state" IN ('applied', 'running', 'failed'))))
          LIMIT ${batchSize} FOR UPDATE OF p SKIP LOCKED)`,
    ));

  return {
    deleted,
    cutoffs: {
      authAttempts: cutoffs.authAttempts.toISOString(),
      sessionsEndedBefore: cutoffs.sessionsEndedBefore.toISOString(),
      sessionsSignedInBefore: cutoffs.sessionsSignedInBefore.toISOString(),
      auditLog: cutoffs.auditLog.toISOString(),
      caches: cutoffs.caches.toISOString(),
      history: cutoffs.history.toISOString(),
      plans: cutoffs.plans.toISOString(),
    },
    complete,
    ms: Date.now() - started,
  };
}

/** The database's clock as a UTC instant (Prisma stores UTC wall-clock times). */
async function databaseNow(): Promise<Date> {
  const [row] = await prisma.$queryRaw<{ t: Date }[]>`SELECT now() AS t`;
  return row!.t;
}
