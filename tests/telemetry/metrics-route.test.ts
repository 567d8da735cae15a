import { afterEach, describe, expect, it, vi } from "vitest";
import { metricsResponse } from "@/lib/telemetry/metrics-route";
import { metrics } from "@/lib/telemetry/metrics";
import { bearerTokenMatches } from "@/lib/security/bearer-token";
import { runObserved } from "@/lib/jobs/observed-run";
import type { JobDefinition } from "@/lib/jobs/registry";

// GET /api/metrics (app/api/metrics/route.ts -> lib/telemetry/metrics-route.ts): the real handler
// on real requests; only the environment changes between tests. The e2e spec (e2e/telemetry.spec.ts)
// scrapes a production server after known traffic.
const TOKEN = "metrics-token-0123456789abcdef";
const get = (authorization?: string) => metricsResponse(new Request("http://portal.test/api/metrics", { headers: authorization ? { authorization } : {} }));

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("GET /api/metrics", () => {
  it("answers 404 when METRICS_TOKEN is not set, even to a bearer token", async () => {
    vi.stubEnv("METRICS_TOKEN", "");
    expect((await get()).status).toBe(404);
    expect((await get(`Bearer ${TOKEN}`)).status).toBe(404);
  });

  it("answers 401 without the token, with another token, or with the token in another scheme", async () => {
    vi.stubEnv("METRICS_TOKEN", TOKEN);
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${TOKEN}`, TOKEN, "Bearer "]) {
      const response = await get(authorization);
      expect(response.status, String(authorization)).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      expect(await response.text()).not.toContain("ems_");
    }
  });

  it("answers the Prometheus text format to the right token, with what was counted", async () => {
    vi.stubEnv("METRICS_TOKEN", TOKEN);
    metrics().emsCalls.inc({ resource: "events", status: "200" }, 3);
    metrics().signInFailures.inc();
    const response = await get(`Bearer ${TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const text = await response.text();
    expect(text).toMatch(/^ems_calls_total\{resource="events",status="200"\} [3-9]\d*$/m);
    expect(text).toMatch(/^auth_sign_in_failures_total [1-9]\d*$/m);
    expect(text).toContain("# TYPE job_duration_seconds histogram");
  });

  it("times job runs by job and result (ok, unfinished, failed), as a scrape sees them", async () => {
    vi.stubEnv("METRICS_TOKEN", TOKEN);
    const context = { signal: new AbortController().signal, trigger: "engine" as const };
    const job = (run: JobDefinition["run"]): JobDefinition => ({ name: "scraped-job", expireInSeconds: 60, retryLimit: 0, run });
    await runObserved(
      job(async () => ({ deleted: 1 })),
      context,
      undefined,
    );
    await runObserved(
      job(async () => ({ deleted: 500, unfinished: true })),
      context,
      undefined,
    );
    await runObserved(
      job(async () => ({ deleted: 500, unfinished: true })),
      context,
      undefined,
    );
    await runObserved(
      job(async () => Promise.reject(new Error("gone"))),
      context,
      undefined,
    ).catch(() => undefined);
    const text = await (await get(`Bearer ${TOKEN}`)).text();
    expect(text).toMatch(/^job_duration_seconds_count\{job="scraped-job",result="ok"\} 1$/m);
    expect(text).toMatch(/^job_duration_seconds_count\{job="scraped-job",result="unfinished"\} 2$/m);
    expect(text).toMatch(/^job_duration_seconds_count\{job="scraped-job",result="failed"\} 1$/m);
    expect(text).toMatch(/^job_duration_seconds_bucket\{le="\+Inf",job="scraped-job",result="ok"\} 1$/m);
    expect(text).toMatch(/^job_runs_total\{job="scraped-job",result="unfinished"\} 2$/m);
    // Every series of the histogram carries both labels.
    const series = text.split("\n").filter((line) => line.startsWith("job_duration_seconds") && line.includes("scraped-job"));
    expect(series.length).toBeGreaterThan(0);
    for (const line of series) expect(line).toMatch(/job="scraped-job",result="(ok|unfinished|failed)"/);
  });

  it("refuses METRICS_TOKEN shorter than 16 characters at start-up", async () => {
    const { metricsEnv } = await import("@/lib/env");
    expect(() => metricsEnv({ METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN must be at least 16 characters/);
    expect(metricsEnv({ METRICS_TOKEN: TOKEN }).METRICS_TOKEN).toBe(TOKEN);
  });
});

describe("the metrics registry", () => {
  it("is one per process, however many copies of the module are loaded (Next.js bundles it more than once)", async () => {
    const first = metrics();
    vi.resetModules();
    const again = await import("@/lib/telemetry/metrics");
    expect(again.metrics()).toBe(first);
    expect(again.metrics().registry).toBe(first.registry);
  });
});

describe("bearerTokenMatches", () => {
  it("matches only `Bearer <secret>` exactly", () => {
    expect(bearerTokenMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    for (const header of [null, "", TOKEN, `bearer ${TOKEN}`, `Bearer  ${TOKEN}`, `Bearer ${TOKEN} `, `Bearer ${TOKEN}0`]) {
      expect(bearerTokenMatches(header, TOKEN), String(header)).toBe(false);
    }
  });
});
