/**
 * `npm run bench:pages`: how fast the listing pages render, beside the portal's lightest
 * authenticated page in the same run (the floor).
 *
 * Scenarios, each at concurrency 10 (BENCH_CONCURRENCY) for BENCH_REQUESTS requests (default 300):
 *   floor            BENCH_FLOOR_PATH (default /views: the app shell, the session check, one small query)
 *   groups-20        /webhook-groups (20 rows)
 *   groups-200-wh    /webhook-groups?per-page=200&expand=webhooks (200 per page, with webhooks)
 * Targets: groups-20 at least 0.6x the floor's throughput; one EMS API call per page view (read
 * from the sandbox's own counters when SANDBOX_ADMIN_SECRET or BENCH_SANDBOX_ADMIN_SECRET is set).
 *
 * Run it against a production build with the sandbox on (e.g. the e2e server:
 * `npm run build && npx tsx scripts/e2e-server.ts`, then BENCH_BASE_URL=http://127.0.0.1:3100).
 * It signs up a fresh user in a headless Chromium and chooses the sandbox's demo account; then it
 * only sends plain HTTP requests with that session's cookie. Loopback only, bounded: it never runs
 * against another host and stops after the configured number of requests.
 */
import { performance } from "node:perf_hooks";
import { randomUUID } from "node:crypto";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chromium } from "playwright-core";
import { findChromium, HOW_TO_GET_CHROMIUM } from "../scripts/find-chromium";
import { createAdminClient } from "../lib/sandbox/testing";

const BASE_URL = (process.env.BENCH_BASE_URL || "http://127.0.0.1:3100").replace(/\/$/, "");
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 10);
const REQUESTS = Number(process.env.BENCH_REQUESTS || 300);
const WARMUP = Number(process.env.BENCH_WARMUP || 20);
const FLOOR_PATH = process.env.BENCH_FLOOR_PATH || "/views";
const ADMIN_SECRET = process.env.BENCH_SANDBOX_ADMIN_SECRET || process.env.SANDBOX_ADMIN_SECRET || process.env.E2E_SANDBOX_ADMIN_SECRET || "e2e-sandbox-admin-secret-0123456789";

function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (!["127.0.0.1", "localhost", "::1", "[::1]"].includes(host)) {
    throw new Error(`bench:pages only runs against this machine (127.0.0.1/localhost), not ${host}.`);
  }
  if (!Number.isInteger(REQUESTS) || REQUESTS < 1 || REQUESTS > 100_000) throw new Error("BENCH_REQUESTS must be 1..100000");
  if (!Number.isInteger(CONCURRENCY) || CONCURRENCY < 1 || CONCURRENCY > 200) throw new Error("BENCH_CONCURRENCY must be 1..200");
}

/** A fresh person with their own team, using the sandbox's demo account; returns the Cookie header. */
async function signUpSession(): Promise<string> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(HOW_TO_GET_CHROMIUM);
  const browser = await chromium.launch({ executablePath, args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"] });
  try {
    const context = await browser.newContext({ baseURL: BASE_URL });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    const id = randomUUID().slice(0, 8);
    await page.goto("/sign-up");
    await page.getByLabel("Your name").fill(`Bench ${id}`);
    await page.getByLabel("Email").fill(`bench-${id}@example.test`);
    await page.getByLabel("Password", { exact: true }).fill(`bench pages ${id} password`);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByTestId("user-name").waitFor();
    await page.goto("/settings");
    await page.getByRole("button", { name: "Use the sandbox" }).click();
    await page.getByText("Saved, encrypted (never shown)").first().waitFor();
    const cookies = await context.cookies(BASE_URL);
    return cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  } finally {
    await browser.close();
  }
}

async function fetchPage(path: string, cookie: string, marker: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${BASE_URL}${path}`, { headers: { cookie }, redirect: "manual" });
  const body = await response.text();
  const elapsed = performance.now() - started;
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  if (!body.includes(marker)) throw new Error(`${path} did not render ${marker}: the page is not what the bench expects`);
  return elapsed;
}

interface Result {
  name: string;
  path: string;
  requests: number;
  seconds: number;
  throughput: number;
  p50: number;
  p99: number;
  apiCallsPerView: number | null;
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

async function run(name: string, path: string, cookie: string, marker: string, apiRequests: () => Promise<number | null>): Promise<Result> {
  for (let i = 0; i < WARMUP; i++) await fetchPage(path, cookie, marker);
  const before = await apiRequests();
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) {
        next++;
        latencies.push(await fetchPage(path, cookie, marker));
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const after = await apiRequests();
  latencies.sort((a, b) => a - b);
  return {
    name,
    path,
    requests: latencies.length,
    seconds,
    throughput: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    apiCallsPerView: before === null || after === null ? null : (after - before) / latencies.length,
  };
}

async function isUp(): Promise<boolean> {
  try {
    return (await fetch(`${BASE_URL}/api/health`, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

/**
 * One command: without BENCH_BASE_URL and with nothing answering on it, build if needed and start
 * the e2e server (production build, embedded database, sandbox on); stop it afterwards.
 * (Building takes about a minute; point BENCH_BASE_URL at a running portal to skip it.)
 */
async function ensurePortal(): Promise<() => void> {
  if (process.env.BENCH_BASE_URL || (await isUp())) return () => undefined;
  {
    // Always a fresh build: a stale one would measure yesterday's code.
    console.log("Building the portal (`next build`)…");
    const build = spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
    if (build.status !== 0) throw new Error("next build failed");
  }
  console.log("Starting the portal (scripts/e2e-server.ts)…");
  const server: ChildProcess = spawn(process.execPath, ["--import", "tsx", "scripts/e2e-server.ts"], { stdio: "ignore", detached: true });
  const deadline = Date.now() + 120_000;
  while (!(await isUp())) {
    if (Date.now() > deadline || server.exitCode !== null) throw new Error("the portal did not start within 120 s");
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return () => {
    if (server.pid) process.kill(-server.pid, "SIGTERM");
  };
}

async function main() {
  assertLoopback(BASE_URL);
  const stopPortal = await ensurePortal();
  try {
    await measure();
  } finally {
    stopPortal();
  }
}

async function measure() {
  console.log(`bench:pages against ${BASE_URL}: ${REQUESTS} requests per scenario at concurrency ${CONCURRENCY} (warm-up ${WARMUP}).`);
  const cookie = await signUpSession();
  const admin = createAdminClient(`${BASE_URL}/sandbox`, ADMIN_SECRET);
  // A generous rate limit for the run: the bench measures the portal, not the sandbox's limiter.
  const apiRequests = async () => {
    try {
      return (await admin.stats()).apiRequests;
    } catch {
      return null;
    }
  };
  try {
    await admin.setRateLimit({ credits: 1_000_000 });
  } catch {
    console.log("(sandbox admin endpoint not reachable with this secret: API calls per view are not counted, the default rate limit applies)");
  }

  const results = [
    await run("floor", FLOOR_PATH, cookie, "<main", apiRequests),
    await run("groups-20", "/webhook-groups", cookie, 'data-testid="listing-table"', apiRequests),
    await run("groups-200-wh", "/webhook-groups?expand=webhooks&per-page=200", cookie, 'data-testid="webhooks-row"', apiRequests),
  ];
  const floor = results[0].throughput;
  const rows = results.map((r) => ({
    scenario: r.name,
    path: r.path,
    requests: r.requests,
    "req/s": r.throughput.toFixed(1),
    "x floor": (r.throughput / floor).toFixed(2),
    "p50 ms": r.p50.toFixed(1),
    "p99 ms": r.p99.toFixed(1),
    "API calls/view": r.apiCallsPerView === null ? "n/a" : r.apiCallsPerView.toFixed(2),
  }));
  console.table(rows);
  const groups20 = results[1];
  const ratio = groups20.throughput / floor;
  console.log(`groups-20 throughput is ${ratio.toFixed(2)}x the floor (target >= 0.60): ${ratio >= 0.6 ? "met" : "NOT met"}.`);
  if (groups20.apiCallsPerView !== null) {
    console.log(`API calls per listing view: ${groups20.apiCallsPerView.toFixed(2)} (target 1): ${Math.abs(groups20.apiCallsPerView - 1) < 0.05 ? "met" : "NOT met"}.`);
  }
  await admin.setRateLimit({ credits: 2000, windowSeconds: 600 }).catch(() => undefined);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
