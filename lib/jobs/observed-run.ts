import "server-only";
import { metrics } from "@/lib/telemetry/metrics";
import { inSpan } from "@/lib/telemetry/spans";
import type { JobContext, JobDefinition, JobResult } from "./registry";

/**
 * A run's `result` label, a fixed set: `ok`; `unfinished`, it stopped at its deadline with work
 * left (the engine sends the job again at once: many in a row mean a job that cannot keep up);
 * `failed`, it threw.
 */
export type JobRunResult = "ok" | "unfinished" | "failed";

export function isUnfinished(outcome: unknown): boolean {
  return typeof outcome === "object" && outcome !== null && (outcome as JobResult).unfinished === true;
}

/**
 * One run of a job, as the job engine and the cron routes both run it: a span ("job retention", the
 * root of the run's database and EMS spans), and job_runs_total / job_duration_seconds by job and
 * result. The run's result and error pass through unchanged.
 */
export async function runObserved<TData>(job: JobDefinition<TData>, context: JobContext, data: TData): Promise<unknown> {
  const started = performance.now();
  let result: JobRunResult = "failed";
  try {
    const outcome = await inSpan(`job ${job.name}`, { attributes: { "job.name": job.name, "job.trigger": context.trigger } }, () => job.run(context, data));
    result = isUnfinished(outcome) ? "unfinished" : "ok";
    return outcome;
  } finally {
    metrics().jobRuns.inc({ job: job.name, result });
    metrics().jobDuration.observe({ job: job.name, result }, (performance.now() - started) / 1000);
  }
}
