import "server-only";
import { databaseEnv, jobsEnv } from "@/lib/env";
import { log } from "@/lib/log";
import { startJobEngine, type JobEngine } from "./engine";

/**
 * Whether this server process runs the job engine: on a Node host yes, unless JOBS_ENABLED=false;
 * never while `next build` runs (Next may load instrumentation to prerender), and by default not
 * on Vercel (no process stays up there: Vercel Cron calls /api/cron/* instead) nor under the tests.
 */
export function shouldRunJobEngine(env: { JOBS_ENABLED?: boolean; VERCEL: boolean; NODE_ENV: string }, phase: string | undefined): boolean {
  if (phase === "phase-production-build") return false;
  return env.JOBS_ENABLED ?? (!env.VERCEL && env.NODE_ENV !== "test");
}

const holder = globalThis as unknown as { emsJobEngine?: Promise<JobEngine | null> };

/**
 * Called once by instrumentation.ts. Starts the engine (when it should run) without holding up the
 * server's start: a database that is not there yet is logged, and the server serves anyway (its
 * health check says what is wrong). Stops it on SIGTERM / SIGINT, beside Next's own shutdown:
 * the running job is told at once (its AbortSignal) and stops after the statement it is in; pg-boss
 * then closes its pool, unless Next's shutdown exits the process first (it does not wait for
 * other listeners). Either way nothing is half done: each batch of a job commits on its own, and
 * a job left "active" by an exit expires (expireInSeconds) and is retried.
 */
export function startJobEngineForServer(phase: string | undefined): void {
  if (holder.emsJobEngine || !shouldRunJobEngine(jobsEnv(), phase)) return;
  holder.emsJobEngine = startJobEngine({ connectionString: databaseEnv().DATABASE_URL }).then(
    (engine) => {
      log.info({ event: "jobs.started" }, "job engine started");
      return engine;
    },
    (error: unknown) => {
      log.error({ event: "jobs.start_failed", err: error }, "job engine did not start; scheduled jobs will not run in this instance");
      return null;
    },
  );
  const stop = () => void stopJobEngineForServer();
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

/** This process's engine, if it runs one (for sending jobs, e.g. "sync now"). */
export async function jobEngineOfThisServer(): Promise<JobEngine | null> {
  return (await holder.emsJobEngine) ?? null;
}

export async function stopJobEngineForServer(): Promise<void> {
  const engine = await holder.emsJobEngine;
  holder.emsJobEngine = undefined;
  if (!engine) return;
  await engine.stop();
  log.info({ event: "jobs.stopped" }, "job engine stopped");
}
