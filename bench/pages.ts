/**
 * `npm run bench:pages [-- --duration 5m] [--requests 300] [--no-build] [--database <url> | --embedded] [--only <text>] [--standalone <dir>] [--hold]`
 *
 * What one page view costs a user, on what a user gets: a production build of the portal started
 * as `npm start` starts it, on a real PostgreSQL, with the standalone sandbox as the EMS API, beside
 * the floor: a minimal Next.js 16 app (bench/floor-app) whose one page fetches the same 20 rows from
 * the sandbox with a bearer token and renders them in a table. Everything is built and started here:
 * the portal through `npm run build`, the project's own build (it copies the static files into
 * .next/standalone, so `npm start` afterwards serves a complete portal), the floor with `next build`.
 *
 * - Database: a throwaway database on the PostgreSQL at --database (default
 *   postgresql://postgres@127.0.0.1:5432/postgres; loopback only), created, migrated and dropped;
 *   when that server cannot be reached (or with --embedded), the embedded PostgreSQL of `npm run dev`
 *   (a real PostgreSQL server from npm, scripts/db/embedded.ts --ephemeral) in a child process, on a
 *   throw-away data directory and a free port, deleted afterwards. Either way the portal gets the
 *   same pool as in production (DATABASE_POOL_MAX 10); the bench's own seeding uses one connection.
 * - Database round trips per page view are counted on the wire (bench/db-round-trips.ts): the
 *   portal connects through a relay that counts the protocol's Query and Sync messages. Exact, and
 *   nothing in the portal changes for it (no flag, no counting code in production); unlike
 *   pg_stat_database it counts round trips, not transactions, and needs no wait for statistics.
 *   Background writes (the EMS client's rate-limit figures, at most one a second) are included. The
 *   same relay counts the bytes the database sent per view ("DB kB/view"): the shared answers'
 *   ciphertext is most of it on Health and Coverage.
 * - Scenarios, each at concurrency 1 and 10 for --requests requests after a warm-up: the floor,
 *   /views (the app shell, the session check, one query), /webhook-groups (20 rows), and /health
 *   and /coverage for the demo account and for a large one (5,000 groups, 2,000 events: the sandbox's
 *   generators, as bench:coverage uses them), read by a second user whose credential is for it.
 *   With --only <text>: the floor and the scenarios whose name contains the text, no targets table.
 * - Memory: the portal's resident set fresh (started, nothing served), after the scenarios, and after
 *   --duration (default 5 minutes) of mixed load at concurrency 10 over the signed-in pages.
 *
 * With --standalone <dir>, the portal is started from that copy of an earlier build's .next/standalone
 * (with its .next/static, as `npm run build` leaves it) instead of this one, with `npm start`'s heap
 * flags: run it with --no-build, then this build, back to back, for a before/after on one machine state.
 *
 * With --hold, everything is started and signed in, the portal's address and session cookie are
 * printed, and the bench waits (Ctrl-C stops it): a production portal to profile by hand.
 *
 * Loopback only and bounded. Results also go to bench/results/pages.json.
 */
import fs from "node:fs";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { startRoundTripCounter, type RoundTripCounter } from "./db-round-trips";
import { freePort, nextServerRss, waitForHttp, type Service } from "./processes";
import { buildPortalAndFloor } from "./builds";
import { startFloor } from "./floor";
import { seedBenchUser, signIn } from "./pages-seed";
import { benchSecrets, runBench, writeResults, LARGE_ACCOUNT, onCleanUp, startDatabase, startNodeOptions, startPortal, startSandbox } from "./portal-stack";

const { values: flags } = parseArgs({
  options: {
    duration: { type: "string", default: "5m" },
    requests: { type: "string", default: "300" },
    warmup: { type: "string", default: "20" },
    "no-build": { type: "boolean", default: false },
    database: { type: "string", default: "postgresql://postgres@127.0.0.1:5432/postgres" },
    embedded: { type: "boolean", default: false },
    hold: { type: "boolean", default: false },
    only: { type: "string" },
    standalone: { type: "string" },
    help: { type: "boolean", default: false },
  },
});

function durationMs(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!match) throw new Error(`--duration ${text}: use e.g. 300s, 5m or 1h`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(match[2] ?? "s") as "ms" | "s" | "m" | "h"];
  return Number(match[1]) * unit;
}

function boundedInt(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`--${name} must be a whole number from ${min} to ${max}`);
  return value;
}

const MIXED_MS = durationMs(flags.duration!);
const REQUESTS = boundedInt("requests", flags.requests!, 1, 100_000);
const WARMUP = boundedInt("warmup", flags.warmup!, 0, 10_000);
if (MIXED_MS > 6 * 3_600_000) throw new Error("--duration is at most 6h");

// ---------------------------------------------------------------------------------------------
// Load

class PageError extends Error {}

/** One page view: how long it took and how many bytes of HTML it sent (uncompressed). */
async function fetchPage(url: string, cookie: string | undefined, marker: string): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const response = await fetch(url, { headers: cookie ? { cookie } : {}, redirect: "manual" });
  const body = await response.text();
  const elapsed = performance.now() - started;
  if (response.status !== 200)
    throw new PageError(`${url} answered ${response.status}${response.headers.get("location") ? ` → ${response.headers.get("location")}` : ""}`);
  if (!body.includes(marker)) throw new PageError(`${url} did not render ${marker}: the page is not what the bench expects`);
  return { ms: elapsed, bytes: Buffer.byteLength(body) };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

interface Target {
  name: string;
  url: string;
  cookie?: string;
  marker: string;
  /** Counted on the portal's database connection; the floor has none. */
  countsRoundTrips: boolean;
}

interface Measurement {
  scenario: string;
  concurrency: number;
  requests: number;
  throughput: number;
  p50: number;
  p95: number;
  p99: number;
  /** HTML of one view, in kB (uncompressed). */
  kb: number;
  roundTripsPerView: number | null;
  /** kB the database sent the portal per view (the shared answers' ciphertext, mostly). */
  dbKbPerView: number | null;
  emsCallsPerView: number | null;
}

async function measure(
  target: Target,
  concurrency: number,
  counters: { roundTrips: () => number; dbBytes: () => number; emsCalls: () => Promise<number | null> },
): Promise<Measurement> {
  for (let i = 0; i < WARMUP; i++) await fetchPage(target.url, target.cookie, target.marker);
  const roundTripsBefore = counters.roundTrips();
  const dbBytesBefore = counters.dbBytes();
  const emsBefore = await counters.emsCalls();
  const latencies: number[] = [];
  let bytes = 0;
  let issued = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (issued < REQUESTS) {
        issued++;
        const view = await fetchPage(target.url, target.cookie, target.marker);
        latencies.push(view.ms);
        bytes = view.bytes;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const roundTrips = counters.roundTrips() - roundTripsBefore;
  const dbBytes = counters.dbBytes() - dbBytesBefore;
  const emsAfter = await counters.emsCalls();
  latencies.sort((a, b) => a - b);
  return {
    scenario: target.name,
    concurrency,
    requests: latencies.length,
    throughput: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    kb: bytes / 1000,
    roundTripsPerView: target.countsRoundTrips ? roundTrips / latencies.length : null,
    dbKbPerView: target.countsRoundTrips ? dbBytes / 1000 / latencies.length : null,
    emsCallsPerView: emsBefore === null || emsAfter === null ? null : (emsAfter - emsBefore) / latencies.length,
  };
}

interface MixedLoad {
  seconds: number;
  requests: number;
  errors: number;
  firstError: string | null;
  throughput: number;
  roundTripsPerView: number;
  peakRss: number | null;
}

/** Concurrency 10 over the signed-in pages, round robin, for MIXED_MS; the portal's RSS sampled meanwhile. */
async function mixedLoad(baseUrl: string, cookie: string, paths: string[], roundTrips: () => number, rss: () => number | null): Promise<MixedLoad> {
  const roundTripsBefore = roundTrips();
  const started = performance.now();
  const deadline = started + MIXED_MS;
  let requests = 0;
  let errors = 0;
  let firstError: string | null = null;
  let peakRss = rss();
  const sampler = setInterval(() => {
    const now = rss();
    if (now !== null && (peakRss === null || now > peakRss)) peakRss = now;
  }, 2_000);
  let next = 0;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (performance.now() < deadline) {
        const pathname = paths[next++ % paths.length];
        try {
          const response = await fetch(`${baseUrl}${pathname}`, { headers: { cookie }, redirect: "manual" });
          await response.arrayBuffer();
          if (response.status !== 200) throw new Error(`${pathname} answered ${response.status}`);
        } catch (error) {
          errors++;
          firstError ??= error instanceof Error ? error.message : String(error);
        }
        requests++;
      }
    }),
  );
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
  return { seconds, requests, errors, firstError, throughput: requests / seconds, roundTripsPerView: (roundTrips() - roundTripsBefore) / Math.max(1, requests), peakRss };
}

// ---------------------------------------------------------------------------------------------
// Setup

const mb = (bytes: number | null) => (bytes === null ? "n/a" : `${(bytes / 1024 / 1024).toFixed(0)} MB`);

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  if (flags.help) {
    console.log(fs.readFileSync(import.meta.filename, "utf8").split("*/")[0]);
    return;
  }
  const nodeOptions = startNodeOptions();
  if (!flags["no-build"]) buildPortalAndFloor();

  const database = await startDatabase(flags.database!, { embedded: flags.embedded });
  const relay: RoundTripCounter = await startRoundTripCounter({ host: new URL(database.url).hostname, port: Number(new URL(database.url).port || 5432) });
  onCleanUp(() => relay.close());
  const sandbox = await startSandbox();

  const secrets = benchSecrets();
  // The bench's own connection (seeding) goes straight to the database; the portal's through the relay.
  // The sandbox is on loopback: the portal may reach it only as a listed private origin.
  Object.assign(process.env, secrets, { DATABASE_URL: database.url, DATABASE_POOL_MAX: "1", EMS_ALLOW_PRIVATE_ORIGINS: new URL(sandbox.baseUrl).origin });
  const user = await seedBenchUser(sandbox.baseUrl);
  const largeUser = await seedBenchUser(sandbox.baseUrl, { consumerKey: LARGE_ACCOUNT.key, consumerSecret: LARGE_ACCOUNT.secret });

  const portalPort = await freePort();
  const portalUrl = `http://127.0.0.1:${portalPort}`;
  const relayedUrl = new URL(database.url);
  relayedUrl.host = `127.0.0.1:${relay.port}`;
  const portal = (portalService = startPortal({
    port: portalPort,
    databaseUrl: relayedUrl.toString(),
    poolMax: database.poolMax,
    secrets,
    standaloneDir: flags.standalone,
  }));

  const floor = await startFloor(sandbox.baseUrl);
  const floorUrl = floor.url;

  await waitForHttp(portal, `${portalUrl}/api/health`, 120_000);
  await floor.ready();
  const portalRss = () => nextServerRss(portal.child.pid!);
  const rssFresh = portalRss();

  const cookie = await signIn(portalUrl, user);
  const largeCookie = await signIn(portalUrl, largeUser);
  console.log(
    `bench:pages: portal ${portalUrl} (npm start, ${nodeOptions.join(" ") || "default heap"}), ${database.kind === "postgres" ? "PostgreSQL" : "embedded PostgreSQL"} (pool ${database.poolMax}), ` +
      `sandbox ${sandbox.baseUrl}, floor ${floorUrl}; ${REQUESTS} requests per scenario after ${WARMUP} warm-up.`,
  );

  if (flags.hold) {
    console.log(`Holding (Ctrl-C stops): PORTAL=${portalUrl} FLOOR=${floorUrl}\nCOOKIE='${cookie}'\nLARGE_COOKIE='${largeCookie}' (the large account's reader)`);
    await new Promise(() => {});
  }

  const emsCalls = async () => {
    try {
      return (await sandbox.admin.stats()).apiRequests;
    } catch {
      return null;
    }
  };
  const counters = { roundTrips: relay.count, dbBytes: relay.bytesFromDatabase, emsCalls };
  const targets: Target[] = [
    { name: "floor (bench/floor-app)", url: `${floorUrl}/`, marker: 'data-testid="floor-table"', countsRoundTrips: false },
    { name: "/views", url: `${portalUrl}/views`, cookie, marker: "<main", countsRoundTrips: true },
    { name: "/webhook-groups (20 rows)", url: `${portalUrl}/webhook-groups`, cookie, marker: 'data-testid="listing-table"', countsRoundTrips: true },
    { name: "/webhooks (20 rows)", url: `${portalUrl}/webhooks`, cookie, marker: 'data-testid="listing-table"', countsRoundTrips: true },
    // Every group of the demo account (140) with its webhooks: the heaviest page a person asks for.
    {
      name: "/webhook-groups (140, webhooks)",
      url: `${portalUrl}/webhook-groups?expand=webhooks&per-page=200`,
      cookie,
      marker: 'data-testid="listing-table"',
      countsRoundTrips: true,
    },
    // Health: every finding of the account computed, one page of 50 rows rendered.
    { name: "/health (demo, 140 groups)", url: `${portalUrl}/health`, cookie, marker: 'data-testid="health-list"', countsRoundTrips: true },
    { name: "/health (large, 5,000 groups)", url: `${portalUrl}/health`, cookie: largeCookie, marker: 'data-testid="health-list"', countsRoundTrips: true },
    // Coverage: the same setup (the same shared answers), every event's coverage, one page of rows.
    { name: "/coverage (demo, 140 groups)", url: `${portalUrl}/coverage`, cookie, marker: 'data-testid="coverage-summary"', countsRoundTrips: true },
    { name: "/coverage (large, 5,000 groups)", url: `${portalUrl}/coverage`, cookie: largeCookie, marker: 'data-testid="coverage-summary"', countsRoundTrips: true },
  ].filter((target) => flags.only === undefined || target.name.startsWith("floor") || target.name.includes(flags.only));
  const results: Measurement[] = [];
  for (const concurrency of [1, 10]) {
    for (const target of targets) {
      results.push(await measure(target, concurrency, counters));
    }
  }
  const rssAfterScenarios = portalRss();

  // Mixed load: every signed-in page, the heavy listing included.
  const listing = await (await fetch(`${portalUrl}/webhook-groups`, { headers: { cookie } })).text();
  const groupId = /href="\/webhook-groups\/(\d+)"/.exec(listing)?.[1];
  const mixedPaths = [
    "/webhook-groups",
    "/views",
    "/events",
    "/webhook-groups?expand=webhooks&per-page=200",
    "/settings/credentials",
    "/team",
    "/account",
    "/webhook-groups?page=2",
    ...(groupId ? [`/webhook-groups/${groupId}`] : []),
  ];
  for (const pathname of mixedPaths) await fetchPage(`${portalUrl}${pathname}`, cookie, "<main");
  console.log(`Mixed load for ${(MIXED_MS / 1000).toFixed(0)} s at concurrency 10 over ${mixedPaths.length} pages…`);
  const mixed = await mixedLoad(portalUrl, cookie, mixedPaths, relay.count, portalRss);
  const rssAfterMixed = portalRss();
  const floorRss = nextServerRss(floor.service.child.pid!);

  const floorAt = new Map(results.filter((r) => r.scenario.startsWith("floor")).map((r) => [r.concurrency, r.throughput]));
  console.table(
    results.map((r) => ({
      page: r.scenario,
      conc: r.concurrency,
      "req/s": r.throughput.toFixed(1),
      "x floor": (r.throughput / floorAt.get(r.concurrency)!).toFixed(2),
      "p50 ms": r.p50.toFixed(1),
      "p95 ms": r.p95.toFixed(1),
      "p99 ms": r.p99.toFixed(1),
      "HTML kB": r.kb.toFixed(0),
      "DB round trips/view": r.roundTripsPerView === null ? "-" : r.roundTripsPerView.toFixed(2),
      "DB kB/view": r.dbKbPerView === null ? "-" : r.dbKbPerView.toFixed(0),
      "EMS calls/view": r.emsCallsPerView === null ? "n/a" : r.emsCallsPerView.toFixed(2),
    })),
  );
  console.log(
    `Portal RSS (${nodeOptions.join(" ") || "default heap"}): fresh ${mb(rssFresh)}, after the scenarios ${mb(rssAfterScenarios)}, ` +
      `after ${(mixed.seconds / 60).toFixed(1)} min of mixed load ${mb(rssAfterMixed)} (peak ${mb(mixed.peakRss)}). The floor app, at the end: ${mb(floorRss)}.`,
  );
  console.log(
    `Mixed load: ${mixed.requests} requests, ${mixed.throughput.toFixed(1)} req/s, ${mixed.roundTripsPerView.toFixed(2)} DB round trips per view, ` +
      `${mixed.errors} errors${mixed.firstError ? ` (first: ${mixed.firstError})` : ""}.`,
  );
  // With --only, the scenarios the targets name may not have run.
  if (flags.only === undefined) {
    // The issue's targets (#11), each beside what this run measured.
    const at = (prefix: string, concurrency: number) => results.find((r) => r.concurrency === concurrency && r.scenario.startsWith(prefix))!;
    const ratio = (r: Measurement) => r.throughput / floorAt.get(r.concurrency)!;
    const heavy = at("/webhook-groups (140", 10);
    const targetRows = [
      ...[1, 10].map((c) => ({
        target: `/webhook-groups (20 rows) >= 0.8x the floor, concurrency ${c}`,
        measured: `${ratio(at("/webhook-groups (20", c)).toFixed(2)}x`,
        met: ratio(at("/webhook-groups (20", c)) >= 0.8,
      })),
      { target: "140 groups with webhooks: HTML < 300 kB", measured: `${heavy.kb.toFixed(0)} kB`, met: heavy.kb < 300 },
      { target: "140 groups with webhooks: >= 40 req/s (concurrency 10)", measured: `${heavy.throughput.toFixed(1)} req/s`, met: heavy.throughput >= 40 },
      ...[1, 10].map((c) => {
        const health = at("/health (large", c);
        return {
          target: `/health, large account (5,000 groups): HTML < 300 kB, concurrency ${c}`,
          measured: `${health.kb.toFixed(0)} kB, ${health.throughput.toFixed(1)} req/s (${ratio(health).toFixed(2)}x the floor)`,
          met: health.kb < 300,
        };
      }),
      // The 35 shared answers of the large account are 22 MB of ciphertext: a view reads their
      // summaries (lib/ems/opened-answers.ts), the ciphertext only when this process has not opened it.
      // Before that, 22,188 kB a view and 0.7 / 1.5 req/s for Health (bench of 2026-11-27).
      ...["/health (large", "/coverage (large"].map((prefix) => {
        const view = at(prefix, 1);
        return {
          target: `${prefix.slice(0, -7)}, large account: DB < 100 kB per view, concurrency 1`,
          measured: `${view.dbKbPerView?.toFixed(0) ?? "-"} kB, ${view.throughput.toFixed(1)} req/s, p50 ${view.p50.toFixed(0)} ms`,
          met: (view.dbKbPerView ?? Infinity) < 100,
        };
      }),
      {
        // Background writes (the EMS client's rate-limit figures, at most one a second) come on top.
        target: "DB round trips per listing view <= 2 (session with the credential, saved views with the shared answer)",
        measured: at("/webhook-groups (20", 10).roundTripsPerView?.toFixed(2) ?? "-",
        met: (at("/webhook-groups (20", 10).roundTripsPerView ?? Infinity) < 2.1,
      },
    ];
    console.table(targetRows.map((row) => ({ ...row, met: row.met ? "met" : "NOT met" })));
    console.log(
      `For scale: /views, the lightest signed-in page (the shell, the session check, one query), serves ${ratio(at("/views", 1)).toFixed(2)}x / ${ratio(at("/views", 10)).toFixed(2)}x the floor ` +
        "at concurrency 1 / 10; the floor checks no session and reads no database.",
    );
  }

  writeResults("pages", {
    database: database.kind,
    nodeOptions,
    requests: REQUESTS,
    results,
    mixed: { ...mixed, paths: mixedPaths },
    rss: { fresh: rssFresh, afterScenarios: rssAfterScenarios, afterMixed: rssAfterMixed, floorAtEnd: floorRss },
  });
}

/** The portal, once started: what it printed is shown when the bench fails (a crash, an out-of-memory). */
let portalService: Service | undefined;

runBench(main, () =>
  portalService ? `The portal's last output (exit code ${portalService.child.exitCode ?? "none: running"}):\n${portalService.output().slice(-4000)}` : undefined,
);
