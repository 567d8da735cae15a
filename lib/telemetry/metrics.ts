import "server-only";
import { Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * The portal's Prometheus metrics: one registry per process, served by GET /api/metrics
 * (app/api/metrics/route.ts). Each instance exposes its own counts; Prometheus scrapes every
 * instance and sums them (README "Traces and metrics").
 *
 * One registry per process, however many times the module is loaded: Next.js bundles a module
 * once for the instrumentation hook and again for each route's bundle, and two registries would
 * each count half the traffic. The registry and its metrics therefore live on globalThis, under a
 * key of their own, created by the first copy of this module that runs.
 *
 * Labels are small fixed sets (a resource, a status code, a job's name, a result word): never an
 * id, an address, a URL or anything a person typed, so the number of series stays bounded.
 */

function createMetrics() {
  const registry = new Registry();
  const registers = [registry];
  return {
    registry,
    emsCalls: new Counter({
      name: "ems_calls_total",
      help: "HTTP requests to the EMS API (every attempt, token requests included), by resource and status code (error: no answer)",
      labelNames: ["resource", "status"] as const,
      registers,
    }),
    emsTokenRequests: new Counter({
      name: "ems_token_requests_total",
      help: "Requests for a new EMS token, by result (issued, rejected, rate_limited, failed)",
      labelNames: ["result"] as const,
      registers,
    }),
    emsRateLimited: new Counter({
      name: "ems_rate_limited_total",
      help: "EMS answers with status 429, by resource",
      labelNames: ["resource"] as const,
      registers,
    }),
    emsRateLimitWaits: new Counter({
      name: "ems_rate_limit_waits_total",
      help: "Times an EMS call waited for the rate-limit window instead of failing, by reason (rate_limited: a 429 or a spent budget; reserve: background work leaving the page views' share)",
      labelNames: ["reason"] as const,
      registers,
    }),
    emsRateLimitWaitSeconds: new Counter({
      name: "ems_rate_limit_wait_seconds_total",
      help: "Seconds EMS calls were asked to wait for the rate-limit window, by reason",
      labelNames: ["reason"] as const,
      registers,
    }),
    emsSharedAnswers: new Counter({
      name: "ems_shared_answers_total",
      help: "Listings and record reads through the shared-answer cache, by resource and result (hit: a stored answer; miss: the API was asked; joined: a call already under way in this process; stale: an older answer served on a rate limit)",
      labelNames: ["resource", "result"] as const,
      registers,
    }),
    jobRuns: new Counter({
      name: "job_runs_total",
      help: "Runs of background jobs (job engine and cron routes), by job and result (ok; unfinished: stopped at its deadline with work left, sent again; failed)",
      labelNames: ["job", "result"] as const,
      registers,
    }),
    jobDuration: new Histogram({
      name: "job_duration_seconds",
      help: "How long background job runs took, by job and result (ok, unfinished, failed)",
      labelNames: ["job", "result"] as const,
      buckets: [0.05, 0.25, 1, 5, 15, 60, 300, 900],
      registers,
    }),
    alertDeliveries: new Counter({
      name: "alert_deliveries_total",
      help: "Alert delivery attempts, by channel and result (sent, retrying, failed, released)",
      labelNames: ["channel", "result"] as const,
      registers,
    }),
    planSteps: new Counter({
      name: "plan_steps_total",
      help: "Change plan steps finished, by operation (webhooks.update, ...) and outcome (applied, failed, conflict, skipped)",
      labelNames: ["operation", "state"] as const,
      registers,
    }),
    planResumes: new Counter({
      name: "plan_resumes_total",
      help: "Plans taken up again by an applier after another stopped: released (a shutdown, a time limit) or lease-expired (the applier died)",
      labelNames: ["reason"] as const,
      registers,
    }),
    signInFailures: new Counter({
      name: "auth_sign_in_failures_total",
      help: "Sign-ins refused for a wrong email or password",
      registers,
    }),
    signInThrottled: new Counter({
      name: "auth_sign_in_throttled_total",
      help: "Sign-in attempts refused by the throttle before the password was checked",
      registers,
    }),
    dbPoolConnections: new Gauge({
      name: "db_pool_connections",
      help: "Connections of this instance's database pool (the app's, not the job engine's), by state (in_use, idle, waiting: requests waiting for one)",
      labelNames: ["state"] as const,
      registers,
      collect() {
        const stats = poolStatsSource.current?.();
        if (!stats) return;
        this.set({ state: "in_use" }, stats.total - stats.idle);
        this.set({ state: "idle" }, stats.idle);
        this.set({ state: "waiting" }, stats.waiting);
      },
    }),
  };
}

export type PortalMetrics = ReturnType<typeof createMetrics>;
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

const holder = globalThis as unknown as { emsPortalMetrics?: PortalMetrics; emsPoolStats?: { current?: () => PoolStats } };
const poolStatsSource = (holder.emsPoolStats ??= {});

/** This process's metrics (created at the first call, shared by every bundle of this module). */
export function metrics(): PortalMetrics {
  return (holder.emsPortalMetrics ??= createMetrics());
}

/** lib/db/prisma.ts names its pool's figures here when it creates the pool (read at each scrape). */
export function setPoolStatsSource(source: () => PoolStats): void {
  poolStatsSource.current = source;
}

/** The text a scrape gets, and its content type. */
export async function scrape(): Promise<{ body: string; contentType: string }> {
  const { registry } = metrics();
  return { body: await registry.metrics(), contentType: registry.contentType };
}
