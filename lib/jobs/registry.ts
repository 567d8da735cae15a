import "server-only";
import { alertDeliveryJob } from "./alert-delivery-job";
import { historySyncJob } from "./history-sync-job";
import { planApplyJob } from "./plan-apply-job";
import { retentionJob } from "./retention-job";

/**
 * Every background job of the portal, in one list: the one place a job is registered. The job
 * engine (lib/jobs/engine.ts, pg-boss in the portal's own database) makes a queue for each, puts
 * the scheduled ones on their schedule and works them; on Vercel, where no process stays up, a cron
 * route (app/api/cron/<route>) runs the same `run` function (lib/jobs/cron-route.ts).
 *
 * To add a job: write a JobDefinition next to retention-job.ts and add it below. A job must be
 * idempotent and safe to run twice at once: the engine runs each scheduled tick once across every
 * instance, but runs of different ticks, a retry or a cron-triggered run may overlap. Each job
 * claims what it works on (a plan's or a tracker's lease, an alert's claim, a batch's delete), so
 * the queue itself needs no lock: a lock held by a job row would outlive a killed instance.
 */

export interface JobContext {
  /** Aborted when the engine stops: finish the current step and return. */
  signal: AbortSignal;
  /** What started the run: the job engine (a schedule tick or a send) or a cron route's call. */
  trigger: "engine" | "cron";
  /**
   * Stop between steps once past this time (epoch ms): a serverless function's time limit, or on
   * the job engine the job's own expiry less a margin, so a live run always ends before pg-boss
   * would give its job up.
   */
  deadline?: number;
}

/** What a run may answer besides its counts: work left at its deadline, for the engine to send the job again at once. */
export interface JobResult {
  unfinished?: boolean;
}

export interface JobDefinition<TData = unknown> {
  /** The queue's name in pg-boss: letters, digits, "-" and "_". */
  name: string;
  /** Cron expression in UTC, 5 fields; none for jobs that are only sent. */
  schedule?: string;
  /**
   * Its Vercel cron route (app/api/cron/<job>/route.ts), when it has one: the path and schedule
   * declared in vercel.json's `crons` (tests/jobs/vercel-crons.test.ts checks that they agree).
   */
  cronRoute?: { path: string; schedule: string };
  /**
   * How long one run may take: the engine gives the run a deadline a little before it. It is also
   * how long the job row of a killed instance stays "active" before pg-boss fails it (its next
   * maintenance, at most 30 s later): with the "standard" policy such a row blocks no other run.
   */
  expireInSeconds: number;
  /** Retries of a failed run (then the next tick tries again anyway). */
  retryLimit: number;
  /**
   * Sent once when an instance starts, besides its schedule: for work a stopped process left that
   * should not wait for the next tick (a plan released by the restart of a deploy).
   */
  sendAtStart?: boolean;
  run(context: JobContext, data: TData): Promise<unknown>;
}

export const JOBS: readonly JobDefinition[] = [
  retentionJob as JobDefinition,
  historySyncJob as JobDefinition,
  alertDeliveryJob as JobDefinition,
  planApplyJob as JobDefinition,
];

export function jobNamed(name: string): JobDefinition {
  const job = JOBS.find((candidate) => candidate.name === name);
  if (!job) throw new Error(`no job named "${name}" is registered in lib/jobs/registry.ts`);
  return job;
}
