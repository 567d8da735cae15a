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
 * To add a job (e.g. the change-history sync): write a JobDefinition next to retention-job.ts and
 * add it below. A job must be idempotent and safe to run twice at once: the engine runs each
 * scheduled tick once across every instance (and, with policy "singleton", never two at once),
 * but a retried or cron-triggered run may still overlap another.
 */

export interface JobContext {
  /** Aborted when the engine stops: finish the current step and return. */
  signal: AbortSignal;
  /** Stop between steps once past this time (epoch ms): a serverless function's time limit. */
  deadline?: number;
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
  /** How long one run may take before the engine fails it and retries it. */
  expireInSeconds: number;
  /** Retries of a failed run (then the next tick tries again anyway). */
  retryLimit: number;
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
