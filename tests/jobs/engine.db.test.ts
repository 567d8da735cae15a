// The job engine (lib/jobs/engine.ts: pg-boss in its own schema) on the project's database, with
// two instances as two servers would run them: they start together without a deadlock, a scheduled
// job runs once per tick, a killed instance's job holds up no other, a run ends before its job
// expires and work it left goes on at once, the engine's tables leave Prisma's migrations alone,
// and stopping closes its connections.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import pg from "pg";
import PgBoss from "pg-boss";
import { afterAll, describe, expect, inject, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { startJobEngine, type JobEngine } from "@/lib/jobs/engine";
import type { JobDefinition } from "@/lib/jobs/registry";
import { runPrisma } from "@/scripts/db/prisma-cli";
import "../setup/provided";
import { ORPHAN_JOB_EXPIRY_SECONDS, ORPHAN_JOB_NAME } from "./support/orphan-job";

const engines: JobEngine[] = [];
afterAll(async () => {
  await Promise.all(engines.map((engine) => engine.stop()));
});

const testSchema = () => `pgboss_test_${randomBytes(4).toString("hex")}`;
const engineOptions = (jobs: JobDefinition[], schema: string) => ({
  connectionString: inject("databaseUrl"),
  jobs,
  schema,
  poolMax: 2,
  intervals: { cronMonitor: 1, cronWorker: 1, polling: 0.5 },
});

/** One instance of the engine on the schema given. */
async function oneInstance(jobs: JobDefinition[], schema: string): Promise<JobEngine> {
  const engine = await startJobEngine(engineOptions(jobs, schema));
  engines.push(engine);
  return engine;
}

/** Two instances of the engine on one schema of their own (so this file never meets the app's). */
async function twoInstances(jobs: JobDefinition[]): Promise<[JobEngine, JobEngine]> {
  const options = engineOptions(jobs, testSchema());
  const started = await Promise.allSettled([startJobEngine(options), startJobEngine(options)]);
  // An instance that did start is stopped after the file even when its twin failed.
  for (const result of started) if (result.status === "fulfilled") engines.push(result.value);
  for (const result of started) if (result.status === "rejected") throw result.reason;
  return started.map((result) => (result as PromiseFulfilledResult<JobEngine>).value) as [JobEngine, JobEngine];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`not within ${timeoutMs} ms`);
    await sleep(100);
  }
}

describe("the job engine on two instances", () => {
  it("starts two instances at once without a deadlock, even when both reach pg-boss's queue table together", async () => {
    // pg-boss makes a partition table for every queue, its own cron queue ("__pgboss__send-it",
    // made inside boss.start()) included, and two of those at once deadlock: each inserts its queue
    // row, then adding the partition's foreign key needs the queue table to itself. A CI run
    // failed on it. Here both instances are held at that table, then let go at the same moment.
    const url = inject("databaseUrl");
    const schema = `pgboss_test_${randomBytes(4).toString("hex")}`;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(PgBoss.getConstructionPlans(schema));
      const deadlocks = async () => {
        await client.query("SELECT pg_stat_clear_snapshot()");
        return (await client.query<{ n: number }>("SELECT deadlocks::int AS n FROM pg_stat_database WHERE datname = current_database()")).rows[0]!.n;
      };
      const before = await deadlocks();
      await client.query("BEGIN");
      await client.query(`LOCK TABLE ${schema}.queue IN SHARE ROW EXCLUSIVE MODE`);
      const job: JobDefinition = { name: "start-test", expireInSeconds: 60, retryLimit: 0, run: async () => undefined };
      const options = { connectionString: url, jobs: [job], schema, poolMax: 2 };
      const starting = Promise.allSettled([startJobEngine(options), startJobEngine(options)]);
      // Both wait: for the queue table, or (one of them) for the other to finish setting up.
      // (Inside a transaction, pg_stat_activity is a snapshot taken at its first read.)
      const waiting = async () => {
        await client.query("SELECT pg_stat_clear_snapshot()");
        return (
          await client.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'ems-portal-jobs' AND wait_event_type = 'Lock' AND datname = current_database()",
          )
        ).rows[0]!.n;
      };
      await expect.poll(waiting, { timeout: 10_000, interval: 50 }).toBe(2);
      await client.query("COMMIT");
      const started = await starting;
      for (const result of started) if (result.status === "fulfilled") await result.value.stop();
      expect(started.map((result) => result.status)).toEqual(["fulfilled", "fulfilled"]);
      // A backend reports its deadlocks by the time it exits: wait for the engines' to close (this
      // test comes first in the file, so no other engine is connected).
      await expect
        .poll(async () => (await client.query("SELECT 1 FROM pg_stat_activity WHERE application_name = 'ems-portal-jobs' AND datname = current_database()")).rowCount, {
          timeout: 5_000,
        })
        .toBe(0);
      expect(await deadlocks()).toBe(before);
    } finally {
      await client.end();
    }
  });

  it("runs a scheduled job once per tick, however many instances check the schedule", async () => {
    // One tick is one minute (cron's unit): keep the whole test inside one minute.
    const second = new Date().getUTCSeconds();
    if (second >= 50) await sleep((61 - second) * 1000);
    const runs: number[] = [];
    const job: JobDefinition = { name: "tick-test", schedule: "* * * * *", expireInSeconds: 60, retryLimit: 0, run: async () => void runs.push(Date.now()) };
    await twoInstances([job]);
    await until(() => runs.length > 0, 15_000);
    // Both instances check the schedule every second meanwhile; the tick is sent once.
    await sleep(4_000);
    expect(runs).toHaveLength(1);
  });

  it("a job left active by a killed instance (SIGKILL) holds nothing: the next job of its queue runs at once on another", async () => {
    const schema = testSchema();
    const doomed = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "tests/jobs/support/doomed-engine.ts"], {
      env: { ...process.env, JOB_TEST_DATABASE_URL: inject("databaseUrl"), JOB_TEST_SCHEMA: schema, NODE_OPTIONS: "", LOG_LEVEL: "warn" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let printed = "";
    doomed.stdout.on("data", (chunk: Buffer) => (printed += chunk.toString()));
    doomed.stderr.on("data", (chunk: Buffer) => (printed += chunk.toString()));
    const exited = new Promise((resolve) => doomed.once("exit", resolve));
    try {
      await until(() => printed.includes("READY"), 30_000);
      const survivorJob: JobDefinition<{ n: number }> = {
        name: ORPHAN_JOB_NAME,
        expireInSeconds: ORPHAN_JOB_EXPIRY_SECONDS,
        retryLimit: 0,
        run: async (_context, data) => void done.push(data.n),
      };
      const done: number[] = [];
      // The doomed instance takes the first job, then is killed mid-run: its job row stays "active".
      const sender = await oneInstance([], schema);
      await sender.send(ORPHAN_JOB_NAME, { n: 1 });
      await until(() => printed.includes("STARTED 1"), 10_000);
      doomed.kill("SIGKILL");
      await exited;

      const survivor = await oneInstance([survivorJob as JobDefinition], schema);
      await survivor.send(ORPHAN_JOB_NAME, { n: 2 });
      await until(() => done.includes(2), 10_000);
      expect(done).toEqual([2]);
    } finally {
      doomed.kill("SIGKILL");
    }
  });

  it("gives a run a deadline before its job's expiry, and sends a run that ends with work left again at once", async () => {
    const runs: { startedAt: number; deadline: number | undefined; trigger: string }[] = [];
    const job: JobDefinition = {
      name: "unfinished-test",
      expireInSeconds: 20,
      retryLimit: 0,
      run: async (context) => {
        runs.push({ startedAt: Date.now(), deadline: context.deadline, trigger: context.trigger });
        return { unfinished: runs.length === 1 };
      },
    };
    const [a] = await twoInstances([job]);
    await a.send("unfinished-test");
    await until(() => runs.length >= 2, 10_000);
    await sleep(1_500);
    expect(runs).toHaveLength(2);
    for (const run of runs) {
      expect(run.trigger).toBe("engine");
      // 90 % of the 20 s expiry: 18 s after the run started.
      expect(run.deadline! - run.startedAt).toBeGreaterThan(17_000);
      expect(run.deadline! - run.startedAt).toBeLessThanOrEqual(18_000);
    }
  });

  it("keeps its tables out of Prisma's way: the database still matches prisma/schema.prisma", async () => {
    const diff = await runPrisma(["migrate", "diff", "--from-config-datasource", "--to-schema", "prisma/schema.prisma", "--exit-code"], {
      env: { DATABASE_URL: inject("databaseUrl"), SHADOW_DATABASE_URL: "" },
      stdio: "pipe",
    });
    expect(await prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_namespace WHERE nspname LIKE 'pgboss_test_%'`).not.toEqual([{ n: 0 }]);
    expect(diff.stdout + diff.stderr).toContain("No difference detected");
    expect(diff.code).toBe(0);
  });

  it("closes its connections when stopped", async () => {
    const connections = async () =>
      (
        await prisma.$queryRaw<
          { n: number }[]
        >`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'ems-portal-jobs' AND datname = current_database()`
      )[0]!.n;
    expect(await connections()).toBeGreaterThan(0);
    await Promise.all(engines.splice(0).map((engine) => engine.stop()));
    // A closed connection leaves pg_stat_activity when its backend has exited: a moment later.
    await expect.poll(connections, { timeout: 5_000, interval: 100 }).toBe(0);
  });
});
