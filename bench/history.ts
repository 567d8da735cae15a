/**
 * `npm run bench:history [-- --groups 5000] [--events 2000] [--scale 20] [--runs 15]`
 *
 * Change history at scale: an account of 5,000 webhook groups (about 20,000 webhooks) and 2,000
 * events, from the sandbox's own generators, over real HTTP, stored in a real PostgreSQL. Prints:
 *
 * 1. the first sync (the baseline): listing calls, credits, seconds, bytes stored;
 * 2. a sync after 1 % of the records changed (edits made through the sandbox's edit control, as a
 *    person in the EMS web app would): the same figures, and the changes found;
 * 3. the same sync under change history's share of the rate limit (10 % of 2,000 credits per
 *    10-minute window), on a time-scaled clock (--scale: the sandbox's window and the share's
 *    window both divided by it): how many runs it takes, and their wall time. The share is counted
 *    in minute buckets (EmsBudgetUsage), which do not scale, so each wait is at least a real
 *    minute: the time is printed as measured, not scaled (at scale 1 a run waits about 11 minutes);
 * 4. a month of history for one group (30 changes a day for 30 days, among 100,000 other rows):
 *    the timeline's read (query and sentences), median and p95 of --runs, beside a floor: the same
 *    rows by one plain indexed SELECT.
 *
 * Database: DATABASE_URL when set (migrated), else a throw-away embedded PostgreSQL, migrated here.
 * Run with the react-server condition (npm run bench:history does).
 */
import { randomBytes, randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { openBenchEnvironment } from "./database";
import { benchMember } from "./people";

const { values: flags } = parseArgs({
  options: {
    groups: { type: "string", default: "5000" },
    events: { type: "string", default: "2000" },
    scale: { type: "string", default: "20" },
    runs: { type: "string", default: "15" },
  },
});
const GROUPS = Number(flags.groups);
const EVENTS = Number(flags.events);
const SCALE = Number(flags.scale);
const RUNS = Math.max(3, Number(flags.runs));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main(): Promise<void> {
  const { stop: stopDatabase } = await openBenchEnvironment();
  process.env.LOG_LEVEL = "silent";

  const { startSandboxServer, DEMO_CREDENTIALS } = await import("@/lib/sandbox/testing");
  const { prisma } = await import("@/lib/db/prisma");
  const { getEmsClientForActor } = await import("@/lib/ems-access/credential");
  const { dropSharedAnswers, flushBudgetUsage, reloadEmsConfig } = await import("@/lib/ems");
  const { startTracking } = await import("@/lib/history/trackers");
  const { syncTracker } = await import("@/lib/history/sync");
  const { groupTimeline } = await import("@/lib/history/feed");

  const adminSecret = randomBytes(18).toString("base64url");
  const sandbox = await startSandboxServer({
    adminSecret,
    accounts: [{ key: DEMO_CREDENTIALS.consumerKey, secret: DEMO_CREDENTIALS.consumerSecret, groups: GROUPS, events: EVENTS, seed: 5150 }],
  });
  process.env.EMS_ALLOW_PRIVATE_ORIGINS = new URL(sandbox.baseUrl).origin;
  await sandbox.admin.setRateLimit({ credits: 1_000_000_000 });
  // Unpaced first: the share is what part 3 measures.
  process.env.HISTORY_SYNC_BUDGET_PERCENT = "70";
  reloadEmsConfig();

  const team = await prisma.team.create({ data: { name: `Bench history ${randomUUID().slice(0, 6)}` } });
  const actor = await benchMember(
    team,
    { email: `bench-${randomUUID().slice(0, 8)}@example.test`, name: "Bench", role: "OWNER" },
    { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS },
  );
  const { id: trackerId } = await startTracking(actor, { intervalMinutes: 15 });
  const fingerprint = (await prisma.apiCredential.findUniqueOrThrow({ where: { userId: actor.userId } })).fingerprint;
  const clearUsage = async () => {
    await flushBudgetUsage();
    await prisma.emsBudgetUsage.deleteMany({ where: { fingerprint } });
  };

  const rows: string[][] = [];
  const timedSync = async (label: string) => {
    const started = performance.now();
    const outcome = await syncTracker(trackerId, { trigger: "manual", force: true });
    const ms = performance.now() - started;
    if (outcome.status !== "ok") throw new Error(`${label}: ${outcome.status} ${"message" in outcome ? outcome.message : ""}`);
    rows.push([label, String(outcome.calls), String(outcome.credits), seconds(ms), kb(outcome.bytes), String(outcome.changes)]);
    return outcome;
  };

  const records = await (async () => {
    await timedSync("1. first sync (baseline)");
    return prisma.trackedRecord.count({ where: { trackerId } });
  })();

  // 1 % of the records, changed as a person in the EMS would (URLs, switches, headers, names...).
  const target = Math.round(records / 100);
  let applied = 0;
  for (let seed = 1; applied < target; seed++) {
    const answer = (await (
      await fetch(`${sandbox.baseUrl}/__admin/edits`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-sandbox-admin-secret": adminSecret },
        body: JSON.stringify({ account: DEMO_CREDENTIALS.consumerKey, random: { count: Math.min(50, target - applied), seed } }),
      })
    ).json()) as { applied?: unknown[] };
    if (!answer.applied) throw new Error(`the sandbox did not apply edits: ${JSON.stringify(answer)}`);
    applied += answer.applied.length;
  }
  await timedSync(`2. sync after ${applied} edits (1 % of ${records} records)`);

  // 3. The same work under the share: 10 % of 2,000 credits per window, the window scaled down.
  await sandbox.admin.setRateLimit({ credits: 2_000, windowSeconds: 600 / SCALE });
  process.env.HISTORY_SYNC_BUDGET_PERCENT = "10";
  reloadEmsConfig();
  // The share is a tenth of the limit the last answer stated: one call so that it states 2,000 again.
  await (await getEmsClientForActor(actor))!.listEvents({ perPage: 1 });
  await clearUsage();
  // A fresh read: nothing from rows 1 and 2 may be served again (they are shared answers for 60 s).
  await dropSharedAnswers(prisma, fingerprint);
  await prisma.trackedRecord.deleteMany({ where: { trackerId } });
  const pacedStarted = performance.now();
  let runs = 0;
  let pacedCalls = 0;
  for (;;) {
    runs += 1;
    const outcome = await syncTracker(trackerId, { trigger: "schedule", force: true, paceWindowMs: 600_000 / SCALE });
    if (outcome.status === "ok") {
      pacedCalls += outcome.calls;
      break;
    }
    if (outcome.status !== "paced") throw new Error(`paced sync: ${outcome.status}`);
    const synced = await prisma.setupSync.findUniqueOrThrow({ where: { id: outcome.syncId } });
    pacedCalls += synced.calls;
    await sleep(Math.max(50, outcome.resumeAt.getTime() - Date.now()));
  }
  const pacedMs = performance.now() - pacedStarted;
  rows.push([`3. a whole read at the 10 % share (${runs} runs, window ${600 / SCALE} s)`, "", "", `${seconds(pacedMs)} (not scaled: minute buckets)`, "", ""]);

  // 4. A month of one group's history among 100,000 other changes.
  const groupId = (await prisma.trackedRecord.findFirstOrThrow({ where: { trackerId, kind: "group" }, orderBy: { recordId: "asc" } })).recordId;
  const sync = await prisma.setupSync.create({ data: { trackerId, trigger: "manual", status: "ok" } });
  const day = 86_400_000;
  const synthetic = (index: number, forGroup: boolean) => ({
    id: randomUUID(),
    trackerId,
    teamId: team.id,
    syncId: sync.id,
    kind: "webhook",
    recordId: forGroup ? 900_000 + (index % 7) : 1_000_000 + index,
    groupId: forGroup ? groupId : 10_000_000 + (index % 5_000),
    recordName: `Hook ${index}`,
    groupName: "Bench group",
    change: "changed",
    field: index % 3 === 0 ? "enabled" : "url",
    before: index % 3 === 0 ? true : `https://hooks.example.com/${index}`,
    after: index % 3 === 0 ? false : `https://hooks.example.com/${index + 1}`,
    changedBy: "jane@example.com",
    seenAt: new Date(Date.now() - (index % 30) * day - (index % 1440) * 60_000),
  });
  for (let start = 0; start < 100_000; start += 5_000) {
    await prisma.setupChange.createMany({ data: Array.from({ length: 5_000 }, (_, offset) => synthetic(start + offset, false)) });
  }
  await prisma.setupChange.createMany({ data: Array.from({ length: 900 }, (_, index) => synthetic(index, true)) });
  await prisma.$executeRawUnsafe('ANALYZE "SetupChange"');
  const timeline = async () => (await groupTimeline(actor, trackerId, groupId, { days: 30, limit: 1_000 })).length;
  const floor = async () =>
    (
      await prisma.$queryRaw<
        { id: string }[]
      >`SELECT "id", "before", "after" FROM "SetupChange" WHERE "trackerId" = ${trackerId} AND "groupId" = ${groupId} AND "seenAt" >= ${new Date(Date.now() - 30 * day)} ORDER BY "seenAt" DESC LIMIT 1000`
    ).length;
  const times = { timeline: [] as number[], floor: [] as number[] };
  let entries = 0;
  await timeline();
  await floor();
  for (let round = 0; round < RUNS; round++) {
    for (const [name, run] of [
      ["timeline", timeline],
      ["floor", floor],
    ] as const) {
      const started = performance.now();
      const count = await run();
      times[name].push(performance.now() - started);
      if (name === "timeline") entries = count;
    }
  }
  for (const list of Object.values(times)) list.sort((a, b) => a - b);

  console.log(
    `\nChange history: ${GROUPS.toLocaleString("en")} groups, ${EVENTS.toLocaleString("en")} events, ${records.toLocaleString("en")} records; database ${new URL(process.env.DATABASE_URL!).host}\n`,
  );
  console.table(rows.map(([what, calls, credits, time, bytes, changes]) => ({ what, calls, credits, time, "bytes stored": bytes, changes })));
  console.log(`   paced run: ${runs} runs; the last made ${pacedCalls} calls (the pages the earlier runs read were served again from shared answers)\n`);
  console.table([
    {
      case: `one group's month (${entries} changes) among 100,000`,
      median: `${percentile(times.timeline, 50).toFixed(1)} ms`,
      p95: `${percentile(times.timeline, 95).toFixed(1)} ms`,
      "× floor": (percentile(times.timeline, 50) / percentile(times.floor, 50)).toFixed(2),
    },
    {
      case: "floor: the same rows, one plain SELECT",
      median: `${percentile(times.floor, 50).toFixed(1)} ms`,
      p95: `${percentile(times.floor, 95).toFixed(1)} ms`,
      "× floor": "1.00",
    },
  ]);

  await prisma.$disconnect();
  await sandbox.close();
  await stopDatabase();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
