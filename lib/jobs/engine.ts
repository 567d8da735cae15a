import "server-only";
import pg from "pg";
import PgBoss from "pg-boss";
import { log } from "@/lib/log";
import { isUnfinished, runObserved } from "./observed-run";
import { JOBS, type JobDefinition } from "./registry";

/**
 * The job engine: pg-boss 10 on the portal's own PostgreSQL, in a schema of its own (`pgboss`,
 * created and migrated by pg-boss itself at start, under its advisory lock; Prisma's migrations
 * only look at `public`). Every Node server instance starts one (lib/jobs/server.ts); they share
 * the database, and pg-boss makes each scheduled tick run once however many there are:
 *
 * - the schedule is checked by at most one instance per cron-monitor interval (a conditional
 *   UPDATE of pgboss.version.cron_on), and the job it sends for a tick carries a singleton key
 *   per queue and minute (a unique index), so a tick seen twice is sent once;
 * - a job is fetched with FOR UPDATE SKIP LOCKED, so exactly one worker gets it; each instance
 *   works one job of a queue at a time.
 *
 * The queues use pg-boss's "standard" policy, not "singleton": a singleton queue lets no job run
 * while another is active, and a job row is "active" until pg-boss's maintenance fails it after
 * its expiry, so one instance killed mid-run held every plan of every team for the job's whole
 * expiry (an hour). Nothing needs the queue to be a lock: every job claims what it works on with
 * a lease of its own (lib/jobs/registry.ts), so runs on two instances at once split the work.
 *
 * A run's deadline is its job's expiry less a margin: a live run ends before pg-boss would give
 * its job up, and one that ends with work left (`unfinished`) is sent again at once, so long work
 * (a large plan) moves on across runs and instances rather than inside one long-held job row.
 */

export const JOB_SCHEMA = "pgboss";

/**
 * How often pg-boss's maintenance fails the active jobs past their expiry (one instance does it per
 * interval): the longest a killed instance's job row outlives its expiry (pg-boss's default is 2 min).
 */
const MAINTENANCE_SECONDS = 30;

/** The part of a job's expiry its run may use; the rest is the margin to stop between steps. */
const RUN_SHARE_OF_EXPIRY = 0.9;

/** A run's deadline (epoch ms) on the engine, from its job's expiry. */
export function runDeadline(job: Pick<JobDefinition, "expireInSeconds">, startedAt: number): number {
  return startedAt + job.expireInSeconds * RUN_SHARE_OF_EXPIRY * 1000;
}

export interface JobEngineOptions {
  connectionString: string;
  /** Connections of the engine's own pool, besides the app's (default 3). */
  poolMax?: number;
  /** The jobs to run (default: every registered job). */
  jobs?: readonly JobDefinition[];
  /** Tests only: pg-boss's intervals, in seconds. */
  intervals?: { cronMonitor?: number; cronWorker?: number; polling?: number };
  /** Tests only: another schema. */
  schema?: string;
}

export interface JobEngine {
  boss: PgBoss;
  /** Sends a job now (e.g. "sync now"); the singleton key, when given, makes a repeat a no-op while one waits. */
  send(name: string, data?: object, options?: { singletonKey?: string }): Promise<string | null>;
  /** Stops fetching, lets a running job finish (it is asked to stop between steps) and closes the pool. */
  stop(): Promise<void>;
}

/**
 * pg-boss is started, and queues and schedules set up, by one instance at a time. pg-boss's
 * create_queue makes a partition table; two of them at once deadlock (each inserts its queue row,
 * then the partition's foreign key needs the queue table to itself), and boss.start() makes one
 * of its own (the cron queue), so the lock covers the start as well (tests/jobs/engine.db.test.ts).
 * A session advisory lock on a connection of its own, released when that connection closes.
 */
async function withSetupLock(connectionString: string, work: () => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString, application_name: "ems-portal-jobs" });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock(hashtextextended('ems-portal-jobs:setup', 0))");
    await work();
  } finally {
    await client.end();
  }
}

export async function startJobEngine(options: JobEngineOptions): Promise<JobEngine> {
  const jobs = options.jobs ?? JOBS;
  const intervals = options.intervals ?? {};
  const boss = new PgBoss({
    connectionString: options.connectionString,
    schema: options.schema ?? JOB_SCHEMA,
    application_name: "ems-portal-jobs",
    max: options.poolMax ?? 3,
    maintenanceIntervalSeconds: MAINTENANCE_SECONDS,
    ...(intervals.cronMonitor ? { cronMonitorIntervalSeconds: intervals.cronMonitor } : {}),
    ...(intervals.cronWorker ? { cronWorkerIntervalSeconds: intervals.cronWorker } : {}),
  });
  boss.on("error", (error: unknown) => log.error({ event: "jobs.error", err: error }, "job engine error"));

  const stopping = new AbortController();
  try {
    await withSetupLock(options.connectionString, async () => {
      await boss.start();
      const registered = new Set(jobs.map((job) => job.name));
      for (const job of jobs) {
        const queue = { name: job.name, policy: "standard" as const, expireInSeconds: job.expireInSeconds, retryLimit: job.retryLimit, retryBackoff: true };
        // createQueue leaves an existing queue as it is: updateQueue brings one made by an older
        // release (a "singleton" queue, a longer expiry) to what the registry says now.
        await boss.createQueue(job.name, queue);
        await boss.updateQueue(job.name, queue);
        if (job.schedule) await boss.schedule(job.name, job.schedule, {}, { tz: "UTC" });
      }
      // A job taken out of the registry must not stay on its schedule in the database.
      for (const schedule of await boss.getSchedules()) {
        if (!registered.has(schedule.name)) await boss.unschedule(schedule.name);
      }
    });
    for (const job of jobs) {
      await boss.work(job.name, { batchSize: 1, ...(intervals.polling ? { pollingIntervalSeconds: intervals.polling } : {}) }, async ([pgJob]) => {
        const started = Date.now();
        try {
          const result = await runObserved(job, { signal: stopping.signal, deadline: runDeadline(job, started), trigger: "engine" }, pgJob!.data);
          log.info({ event: "jobs.done", job: job.name, id: pgJob!.id, ms: Date.now() - started }, "job done");
          // Work left at the deadline goes on at once, on whichever instance fetches it first.
          if (isUnfinished(result) && !stopping.signal.aborted) await boss.send(job.name, pgJob!.data ?? {});
          return result;
        } catch (error) {
          log.error({ event: "jobs.failed", job: job.name, id: pgJob!.id, err: error }, "job failed");
          throw error;
        }
      });
    }
    for (const job of jobs) if (job.sendAtStart) await boss.send(job.name, {});
  } catch (error) {
    // Start-up failed: the error above is the one to report; a failing stop is logged beside it.
    await boss
      .stop({ graceful: false, wait: true })
      .catch((stopError: unknown) => log.error({ event: "jobs.stop_failed", err: stopError }, "job engine: stop after a failed start failed too"));
    throw error;
  }

  let stopped: Promise<void> | null = null;
  return {
    boss,
    send: (name, data = {}, sendOptions = {}) => boss.send(name, data, sendOptions),
    stop() {
      stopped ??= (async () => {
        stopping.abort();
        await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
      })();
      return stopped;
    },
  };
}
