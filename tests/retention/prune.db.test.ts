// The retention prune (lib/retention/prune.ts) on the real PostgreSQL (and the embedded one): two
// runs at once delete every due row exactly once between them (their counts add up to what was
// due), and nothing that is not due, one second on the safe side of each cut-off, is touched.
// On a database of its own: files running beside it leave due rows (old sessions) of their own.
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { stateAsOf, writeCheckpoint } from "@/lib/history/store";
import { insertPlan } from "@/lib/plans/store";
import { pruneExpiredRecords, type RetentionPolicy } from "@/lib/retention/prune";
import { ensureEmsTestEnv } from "@/tests/ems/support/env";
import { createTeam, createUser, unique } from "@/tests/teams/fixtures";
import { warmPool, withOwnDatabase } from "../setup/db";

withOwnDatabase();
ensureEmsTestEnv();

const SECOND = 1000;
const DAY = 24 * 3600 * SECOND;
const policy: RetentionPolicy = {
  authAttemptsDays: 30,
  endedSessionsDays: 30,
  auditLogDays: 365,
  historyDays: 365,
  planDraftsDays: 30,
  sessionIdleSeconds: 7 * 24 * 3600,
  sessionMaxAgeSeconds: 30 * 24 * 3600,
  throttleWindowSeconds: 900,
};

let now: Date;
const ago = (ms: number) => new Date(now.getTime() - ms);
const iso = (date: Date) => date.toISOString();

beforeAll(async () => {
  now = (await prisma.$queryRaw<{ t: Date }[]>`SELECT now() AS t`)[0]!.t;
});

/** `count` rows of AuthAttempt created at `at`, minus i seconds each (older still), tagged. */
async function attempts(tag: string, at: Date, count: number) {
  await prisma.$executeRaw`
    INSERT INTO "AuthAttempt" ("id", "kind", "account", "address", "success", "createdAt")
    SELECT ${tag} || '-' || ${unique()} || '-' || i, 'password', ${tag}, '192.0.2.1', false, ${iso(at)}::timestamp - make_interval(secs => i)
    FROM generate_series(0, ${count - 1}) AS i`;
}
async function auditRecords(tag: string, at: Date, count: number) {
  await prisma.$executeRaw`
    INSERT INTO "AuditLog" ("id", "action", "target", "createdAt")
    SELECT ${tag} || '-' || ${unique()} || '-' || i, 'auth.sign_in', ${tag}, ${iso(at)}::timestamp - make_interval(secs => i)
    FROM generate_series(0, ${count - 1}) AS i`;
}
async function sessions(tag: string, userId: string, times: { createdAt: Date; lastSeenAt: Date; revokedAt: Date | null }, count: number) {
  await prisma.$executeRaw`
    INSERT INTO "UserSession" ("id", "userId", "createdAt", "lastSeenAt", "revokedAt", "ip")
    SELECT ${tag} || '-' || ${unique()} || '-' || i, ${userId}, ${iso(times.createdAt)}::timestamp - make_interval(secs => i),
           ${iso(times.lastSeenAt)}::timestamp - make_interval(secs => i),
           ${times.revokedAt ? iso(times.revokedAt) : null}::timestamp - make_interval(secs => i), '192.0.2.9'
    FROM generate_series(0, ${count - 1}) AS i`;
}
const left = async (tag: string) =>
  (await prisma.authAttempt.count({ where: { account: tag } })) +
  (await prisma.auditLog.count({ where: { target: tag } })) +
  (await prisma.userSession.count({ where: { id: { startsWith: `${tag}-` } } }));

describe("pruneExpiredRecords", () => {
  it("run twice at once: every due row deleted once (the counts add up), nothing newer touched", async () => {
    const user = await createUser("Retention");
    // Due, in bulk.
    await attempts("due-attempt", ago(30 * DAY + SECOND), 3000);
    await auditRecords("due-audit", ago(365 * DAY + SECOND), 3000);
    await sessions("due-revoked", user.id, { createdAt: ago(40 * DAY), lastSeenAt: ago(31 * DAY), revokedAt: ago(30 * DAY + SECOND) }, 500);
    // Idle since 37 days + 1 s: went idle (7 days later) 30 days + 1 s ago.
    await sessions("due-idle", user.id, { createdAt: ago(45 * DAY), lastSeenAt: ago(37 * DAY + SECOND), revokedAt: null }, 500);
    // Signed in 60 days + 1 s ago: expired (30 days later) 30 days + 1 s ago, though used since.
    await sessions("due-expired", user.id, { createdAt: ago(60 * DAY + SECOND), lastSeenAt: ago(31 * DAY), revokedAt: null }, 500);
    const due = { authAttempts: 3000, auditLog: 3000, sessions: 1500 };

    // Not due: one second (or more) on the other side of each cut-off.
    await attempts("kept-attempt", ago(30 * DAY - SECOND), 1);
    await attempts("kept-attempt", ago(DAY), 1);
    await auditRecords("kept-audit", ago(365 * DAY - SECOND), 1);
    await auditRecords("kept-audit", ago(DAY), 1);
    await sessions("kept-revoked", user.id, { createdAt: ago(40 * DAY), lastSeenAt: ago(31 * DAY), revokedAt: ago(30 * DAY - SECOND) }, 1);
    await sessions("kept-idle", user.id, { createdAt: ago(45 * DAY), lastSeenAt: ago(37 * DAY - SECOND), revokedAt: null }, 1);
    await sessions("kept-expired", user.id, { createdAt: ago(60 * DAY - SECOND), lastSeenAt: ago(31 * DAY), revokedAt: null }, 1);
    await sessions("kept-open", user.id, { createdAt: ago(DAY), lastSeenAt: ago(60 * SECOND), revokedAt: null }, 1);
    const keptTags = ["kept-attempt", "kept-audit", "kept-revoked", "kept-idle", "kept-expired", "kept-open"];
    const keptBefore = await Promise.all(keptTags.map(left));

    await warmPool();
    const started = Date.now();
    const runs = await Promise.all([pruneExpiredRecords({ policy, now, batchSize: 100 }), pruneExpiredRecords({ policy, now, batchSize: 100 })]);
    const ms = Date.now() - started;
    const total = (table: keyof typeof due) => runs[0].deleted[table] + runs[1].deleted[table];
    expect({ authAttempts: total("authAttempts"), auditLog: total("auditLog"), sessions: total("sessions") }).toEqual(due);
    expect(runs.every((run) => run.complete)).toBe(true);
    for (const tag of ["due-attempt", "due-audit", "due-revoked", "due-idle", "due-expired"]) expect(await left(tag), tag).toBe(0);
    expect(await Promise.all(keptTags.map(left))).toEqual(keptBefore);
    expect(keptBefore).toEqual([2, 2, 1, 1, 1, 1]);
    console.info(
      `retention: ${due.authAttempts + due.auditLog + due.sessions} rows pruned by two concurrent runs in ${ms} ms (batches of 100): ` +
        runs.map((run) => JSON.stringify(run.deleted)).join(" + "),
    );

    // A third run finds nothing left to do.
    expect((await pruneExpiredRecords({ policy, now })).deleted).toEqual({
      authAttempts: 0,
      auditLog: 0,
      sessions: 0,
      sharedAnswers: 0,
      budgetUsage: 0,
      historyChanges: 0,
      historyCheckpoints: 0,
      historySyncs: 0,
      plans: 0,
    });
  });

  it("never deletes sign-in attempts inside the throttle window, nor sessions signed in within 30 days (the throttle's known addresses)", async () => {
    const user = await createUser("Retention");
    const short = { ...policy, authAttemptsDays: 1, endedSessionsDays: 1, throttleWindowSeconds: 3 * 24 * 3600 };
    await attempts("window-attempt", ago(2 * DAY), 1);
    await attempts("old-attempt", ago(3 * DAY + SECOND), 1);
    await sessions("recent-revoked", user.id, { createdAt: ago(20 * DAY), lastSeenAt: ago(19 * DAY), revokedAt: ago(19 * DAY) }, 1);
    await sessions("old-revoked", user.id, { createdAt: ago(30 * DAY + SECOND), lastSeenAt: ago(29 * DAY), revokedAt: ago(29 * DAY) }, 1);
    await pruneExpiredRecords({ policy: short, now });
    expect([await left("window-attempt"), await left("old-attempt"), await left("recent-revoked"), await left("old-revoked")]).toEqual([1, 0, 1, 0]);
  });

  it("drops shared listing answers and budget minutes over a day old, and keeps younger ones and live leases", async () => {
    const team = await prisma.team.create({ data: { name: `Retention ${unique()}` } });
    const answer = (queryHash: string, fetchedAt: Date | null, leaseUntil: Date | null) =>
      prisma.$executeRaw`
        INSERT INTO "EmsSharedAnswer" ("teamId", "fingerprint", "queryHash", "ciphertext", "fetchedAt", "leaseUntil")
        VALUES (${team.id}, 'fp', ${queryHash}, 'v1:x', ${fetchedAt && iso(fetchedAt)}::timestamp, ${leaseUntil && iso(leaseUntil)}::timestamp)`;
    await answer("old", ago(DAY + SECOND), null);
    await answer("abandoned-lease", null, ago(DAY + SECOND));
    await answer("young", ago(DAY - SECOND), null);
    await answer("old-but-leased", ago(2 * DAY), ago(-60 * SECOND));
    const minute = (at: Date) =>
      prisma.$executeRaw`
        INSERT INTO "EmsBudgetUsage" ("teamId", "fingerprint", "kind", "minute", "calls", "credits") VALUES (${team.id}, 'fp', 'page', ${iso(at)}::timestamp, 1, 10)`;
    await minute(ago(DAY + 60 * SECOND));
    await minute(ago(60 * SECOND));

    const run = await pruneExpiredRecords({ policy, now });
    expect(run.deleted).toMatchObject({ sharedAnswers: 2, budgetUsage: 1 });
    const answers = await prisma.emsSharedAnswer.findMany({ where: { teamId: team.id }, select: { queryHash: true }, orderBy: { queryHash: "asc" } });
    expect(answers.map((row) => row.queryHash)).toEqual(["old-but-leased", "young"]);
    expect(await prisma.emsBudgetUsage.count({ where: { teamId: team.id } })).toBe(1);
  });

  it("stops between batches when asked, and the next run goes on", async () => {
    await attempts("stopped-attempt", ago(31 * DAY), 250);
    const stop = new AbortController();
    stop.abort();
    expect(await pruneExpiredRecords({ policy, now, batchSize: 100, signal: stop.signal })).toMatchObject({ complete: false, deleted: { authAttempts: 0 } });
    expect(await pruneExpiredRecords({ policy, now, batchSize: 100, deadline: 0 })).toMatchObject({ complete: false });
    expect(await left("stopped-attempt")).toBe(250);
    expect((await pruneExpiredRecords({ policy, now, batchSize: 100 })).deleted.authAttempts).toBe(250);
  });

  it("prunes 20,000 due sign-in attempts in batches of 1,000 (timing, printed)", async () => {
    await attempts("bulk-attempt", ago(31 * DAY), 20_000);
    const run = await pruneExpiredRecords({ policy, now });
    expect(run.deleted.authAttempts).toBe(20_000);
    console.info(`retention: 20000 sign-in attempts pruned in ${run.ms} ms (batches of 1000)`);
  });
  it("change history: keeps each tracker's newest checkpoint from before the cut-off and what came after; 'as of' works from it, before it history has begun", async () => {
    const { teamId } = await createTeam();
    const tracker = await prisma.changeTracker.create({ data: { teamId, accountKey: `retention-${unique()}`, accountLabel: "sandbox · key …demo" } });
    const sync = (at: Date) => prisma.setupSync.create({ data: { trackerId: tracker.id, trigger: "schedule", startedAt: at, finishedAt: at, status: "synced" } });
    const change = async (at: Date, recordId: number) => {
      const { id: syncId } = await sync(at);
      await prisma.setupChange.create({
        data: {
          trackerId: tracker.id,
          teamId,
          syncId,
          kind: "group",
          recordId,
          groupId: recordId,
          recordName: `Group ${recordId}`,
          change: "added",
          after: { name: `Group ${recordId}` },
          seenAt: at,
        },
      });
    };
    // Checkpoints 400 and 366 days ago (before the 365-day cut-off) and 10 days ago.
    const [oldest, kept, recent] = [ago(400 * DAY), ago(366 * DAY), ago(10 * DAY)];
    for (const at of [oldest, kept, recent]) await writeCheckpoint(prisma, tracker.id, at, []);
    await sync(ago(401 * DAY)); // a sync without changes, before the kept checkpoint
    await change(ago(395 * DAY), 1); // held by the kept checkpoint
    await change(kept, 2); // seen with the kept checkpoint: held by it
    await change(ago(366 * DAY - SECOND), 3); // after it: stays
    await change(ago(5 * DAY), 4);
    const lastSync = await sync(ago(DAY));

    const first = await pruneExpiredRecords({ policy, now });
    expect(first.deleted).toMatchObject({ historyChanges: 2, historyCheckpoints: 1, historySyncs: 2 });
    expect((await prisma.setupChange.findMany({ where: { trackerId: tracker.id }, orderBy: { recordId: "asc" } })).map((row) => row.recordId)).toEqual([3, 4]);
    expect((await prisma.setupCheckpoint.findMany({ where: { trackerId: tracker.id }, orderBy: { takenAt: "asc" } })).map((row) => row.takenAt)).toEqual([kept, recent]);
    expect(await prisma.setupSync.count({ where: { id: lastSync.id } })).toBe(1);

    // Before the kept checkpoint: history begins there. From it: the changes after it apply.
    expect(await stateAsOf(tracker.id, ago(390 * DAY))).toEqual({ kind: "before-history", firstSync: kept });
    const past = await stateAsOf(tracker.id, ago(300 * DAY));
    expect(past.kind === "ok" && [...past.records.keys()]).toEqual(["group:3"]);
    // Nothing more to do; a tracker whose history is all younger than the cut-off is not touched.
    expect((await pruneExpiredRecords({ policy, now })).deleted).toMatchObject({ historyChanges: 0, historyCheckpoints: 0, historySyncs: 0 });
  });

  it("change plans: drafts untouched for 30 days and cancelled plans that sent nothing go, with their steps; nothing that reached the EMS or waits for review", async () => {
    const team = await createTeam();
    const plan = async (title: string, status: string, updatedAt: Date, stepState = "pending") => {
      const planId = await insertPlan({
        teamId: team.teamId,
        accountKey: "acct:retention",
        title,
        steps: [{ operation: "webhooks.update", recordId: 1, changes: { name: title } }],
      });
      await prisma.changePlanStep.updateMany({ where: { planId }, data: { state: stepState } });
      await prisma.$executeRaw`UPDATE "ChangePlan" SET "status" = ${status}, "updatedAt" = ${iso(updatedAt)}::timestamp WHERE "id" = ${planId}`;
      return planId;
    };
    const old = ago(31 * DAY);
    const gone = [await plan("old draft", "draft", old), await plan("old cancelled, nothing sent", "cancelled", old, "skipped")];
    const kept = [
      await plan("recent draft", "draft", ago(29 * DAY)),
      await plan("old cancelled mid-apply", "cancelled", old, "applied"),
      await plan("old cancelled, unknown step", "cancelled", old, "failed"),
      await plan("old waiting for review", "submitted", old),
      await plan("old applied", "applied", old, "applied"),
    ];
    const result = await pruneExpiredRecords({ policy, now });
    expect(result.deleted.plans).toBe(2);
    expect(await prisma.changePlan.count({ where: { id: { in: gone } } })).toBe(0);
    expect(await prisma.changePlanStep.count({ where: { planId: { in: gone } } })).toBe(0);
    expect(await prisma.changePlan.count({ where: { id: { in: kept } } })).toBe(kept.length);
  });
});
