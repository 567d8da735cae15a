/**
 * `npm run bench:cold [-- --rounds 3] [--no-build] [--database <url> | --embedded] [--port <n>]`
 *
 * The first view of Health and Coverage on the large account (5,000 groups, 20,000 webhooks, 2,000
 * events: bench/portal-stack.ts `LARGE_ACCOUNT`) by a portal process that has not opened the
 * account's shared answers yet: after a restart, or on a second instance. bench:pages measures the
 * same pages warm; a fresh process is what a deploy, a crash or a scale-out gives the first person.
 *
 * The portal is `npm start` (its 256 MB heap) on a production build, on a throw-away PostgreSQL
 * (bench/portal-stack.ts), the standalone sandbox as the EMS API, its database connection through
 * the round-trip relay (bench/db-round-trips.ts). The answers are stored once (the very first view,
 * which asks the API: "answers cold"; EMS_PAGE_BUDGET_MS 60 s for it), kept for the whole run (EMS_COVERAGE_CACHE_SECONDS 3600), and
 * then, round after round, the portal is restarted before each page and its first view measured
 * ("answers warm in the database, memo cold": Health's findings and Coverage's rows stored per setup,
 * lib/setup/stored-results.ts), then a second view (the memo warm). Last, a few rounds with those
 * results deleted first: a fresh process's first view since the setup changed, which reads the setup
 * and computes them (the targets are for the first rows).
 *
 * Printed per page: the median and the p95 of the rounds' first views (targets: both under 1 s,
 * issue 34 §2), the next view, the HTML, and the database round trips and bytes of the first view.
 *
 * The floor, in the same run: the first view of /views by each fresh process (the shell, the session
 * check, one query), which also pays for starting the server's rendering; Health or Coverage is
 * then that process's second request, its first view of the page and of the account's answers.
 *
 * With --port n: the portal on n, the sandbox on n + 1 and the round-trip relay on n + 2 (default: free ports).
 *
 * Loopback only and bounded. Results also go to bench/results/cold-views.json.
 */
import fs from "node:fs";
import { spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import pg from "pg";
import { startRoundTripCounter } from "./db-round-trips";
import { freePort, waitForHttp, type Service } from "./processes";
import { seedBenchUser, signIn } from "./pages-seed";
import { benchSecrets, runBench, writeResults, LARGE_ACCOUNT, NPM, onCleanUp, ROOT, startDatabase, startPortal, startSandbox } from "./portal-stack";

const { values: flags } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    "no-build": { type: "boolean", default: false },
    database: { type: "string", default: "postgresql://postgres@127.0.0.1:5432/postgres" },
    embedded: { type: "boolean", default: false },
    port: { type: "string" },
    help: { type: "boolean", default: false },
  },
});

const ROUNDS = Number(flags.rounds);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1 || ROUNDS > 20) throw new Error("--rounds must be a whole number from 1 to 20");
const BASE_PORT = flags.port === undefined ? null : Number(flags.port);
if (BASE_PORT !== null && (!Number.isInteger(BASE_PORT) || BASE_PORT < 1024 || BASE_PORT > 65_000)) throw new Error("--port must be a whole number from 1024 to 65000");

/** The targets of issue 34 §2: a fresh process's first view, and Coverage's HTML. */
const FIRST_VIEW_TARGET_MS = 1_000;
const COVERAGE_HTML_TARGET_KB = 300;

interface View {
  ms: number;
  kb: number;
  roundTrips: number;
  dbKb: number;
}

interface Scenario {
  name: string;
  path: string;
  marker: string;
}

const FLOOR: Scenario = { name: "floor: /views", path: "/views", marker: "<main" };
const SCENARIOS: Scenario[] = [
  { name: "/health (large)", path: "/health", marker: 'data-testid="health-list"' },
  { name: "/coverage (large)", path: "/coverage", marker: 'data-testid="coverage-summary"' },
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
/** The nearest-rank percentile: with 20 rounds or fewer, p95 is the slowest round. */
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.max(0, Math.ceil((p / 100) * values.length) - 1))];

async function main(): Promise<void> {
  if (flags.help) {
    console.log(fs.readFileSync(import.meta.filename, "utf8").split("*/")[0]);
    return;
  }
  if (!flags["no-build"]) {
    console.log("Building the portal (npm run build)…");
    const result = spawnSync(NPM, ["run", "--silent", "build"], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    });
    if (result.status !== 0) throw new Error("npm run build failed");
  }
  const database = await startDatabase(flags.database!, { embedded: flags.embedded });
  const relay = await startRoundTripCounter(
    { host: new URL(database.url).hostname, port: Number(new URL(database.url).port || 5432) },
    BASE_PORT === null ? 0 : BASE_PORT + 2,
  );
  onCleanUp(() => relay.close());
  const sandbox = await startSandbox({ port: BASE_PORT === null ? 0 : BASE_PORT + 1 });
  const secrets = benchSecrets();
  Object.assign(process.env, secrets, { DATABASE_URL: database.url, DATABASE_POOL_MAX: "1", EMS_ALLOW_PRIVATE_ORIGINS: new URL(sandbox.baseUrl).origin });
  const user = await seedBenchUser(sandbox.baseUrl, { consumerKey: LARGE_ACCOUNT.key, consumerSecret: LARGE_ACCOUNT.secret });

  const port = BASE_PORT ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const relayedUrl = new URL(database.url);
  relayedUrl.host = `127.0.0.1:${relay.port}`;
  let portal: Service | null = null;
  /** A fresh portal process: the one before it stopped, this one started and answering. */
  const restart = async () => {
    await portal?.stop();
    portal = startPortal({
      port,
      databaseUrl: relayedUrl.toString(),
      poolMax: database.poolMax,
      secrets,
      env: { EMS_COVERAGE_CACHE_SECONDS: "3600", EMS_PAGE_BUDGET_MS: "60000" },
    });
    await waitForHttp(portal, `${baseUrl}/api/health`, 120_000);
  };
  await restart();
  // The session is a JWT signed with NEXTAUTH_SECRET: it stays valid across restarts.
  const cookie = await signIn(baseUrl, user);

  const view = async (scenario: Scenario): Promise<View> => {
    const roundTrips = relay.count();
    const dbBytes = relay.bytesFromDatabase();
    const started = performance.now();
    const response = await fetch(`${baseUrl}${scenario.path}`, { headers: { cookie }, redirect: "manual" });
    const body = await response.text();
    const ms = performance.now() - started;
    if (response.status !== 200) throw new Error(`${scenario.path} answered ${response.status}`);
    if (!body.includes(scenario.marker)) {
      const main = body.slice(body.indexOf("<main"), body.indexOf("<main") + 1500).replace(/<[^>]+>/g, " ");
      throw new Error(`${scenario.path} did not render ${scenario.marker}: ${main.replace(/\s+/g, " ").slice(0, 600)}`);
    }
    return { ms, kb: Buffer.byteLength(body) / 1000, roundTrips: relay.count() - roundTrips, dbKb: (relay.bytesFromDatabase() - dbBytes) / 1000 };
  };

  console.log(
    `bench:cold: portal ${baseUrl} (npm start), ${database.kind === "postgres" ? "PostgreSQL" : "embedded PostgreSQL"}, sandbox ${sandbox.baseUrl}; ${ROUNDS} rounds.`,
  );
  const firsts = new Map<string, View[]>();
  const seconds = new Map<string, View[]>();
  const record = (into: Map<string, View[]>, scenario: Scenario, measured: View) => into.set(scenario.name, [...(into.get(scenario.name) ?? []), measured]);
  // The very first view: nothing stored, the API asked for all 35 pages (the answers are then warm in
  // the database); then Coverage's, which computes its rows from them (lib/setup/stored-results.ts).
  const answersCold = await view(SCENARIOS[0]);
  const resultsCold = new Map<string, View[]>();
  record(resultsCold, SCENARIOS[1], await view(SCENARIOS[1]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const scenario of SCENARIOS) {
      await restart();
      // The process's first view is the floor's: what follows pays for its page and its shared answers only.
      record(firsts, FLOOR, await view(FLOOR));
      record(seconds, FLOOR, await view(FLOOR));
      record(firsts, scenario, await view(scenario));
      record(seconds, scenario, await view(scenario));
    }
  }
  // A fresh process after the setup changed: its answers stored, the results computed from them not
  // yet (the first view of a page since a refresh or a write): what every first view cost before.
  const sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
  for (let round = 0; round < Math.min(ROUNDS, 3); round++) {
    for (const scenario of SCENARIOS) {
      await sql.query('DELETE FROM "SetupResult"');
      await restart();
      await view(FLOOR);
      record(resultsCold, scenario, await view(scenario));
    }
  }
  await sql.end();
  await portal!.stop();

  const floorMs = median(firsts.get(FLOOR.name)!.map((v) => v.ms));
  const row = (name: string, answers: string, views: View[], warm: View[] | null) => ({
    page: name,
    "shared answers": answers,
    "first view ms (median)": median(views.map((v) => v.ms)).toFixed(0),
    "p95 ms": percentile(
      views.map((v) => v.ms),
      95,
    ).toFixed(0),
    "x floor": (median(views.map((v) => v.ms)) / floorMs).toFixed(1),
    "next view ms": warm ? median(warm.map((v) => v.ms)).toFixed(0) : "-",
    "HTML kB": views[0].kb.toFixed(0),
    "DB round trips": median(views.map((v) => v.roundTrips)).toFixed(0),
    "DB kB": median(views.map((v) => v.dbKb)).toFixed(0),
  });
  console.table([
    row(FLOOR.name, "-", firsts.get(FLOOR.name)!, seconds.get(FLOOR.name)!),
    row(`${SCENARIOS[0].name}, very first`, "cold: EMS asked", [answersCold], null),
    ...SCENARIOS.map((scenario) => row(scenario.name, "warm in DB, memo cold", firsts.get(scenario.name)!, seconds.get(scenario.name)!)),
    ...SCENARIOS.map((scenario) => row(`${scenario.name}, results not stored`, "answers warm in DB only", resultsCold.get(scenario.name)!, null)),
  ]);
  const health = firsts.get(SCENARIOS[0].name)!;
  const coverage = firsts.get(SCENARIOS[1].name)!;
  const firstView = (page: string, views: View[]) =>
    (["median", "p95"] as const).map((statistic) => {
      const measured =
        statistic === "median"
          ? median(views.map((v) => v.ms))
          : percentile(
              views.map((v) => v.ms),
              95,
            );
      return {
        target: `${page}, large, fresh process: first view ${statistic} < ${FIRST_VIEW_TARGET_MS} ms`,
        measured: `${measured.toFixed(0)} ms`,
        met: measured < FIRST_VIEW_TARGET_MS ? "met" : "NOT met",
      };
    });
  console.table([
    ...firstView("/health", health),
    ...firstView("/coverage", coverage),
    {
      target: `/coverage, large: HTML < ${COVERAGE_HTML_TARGET_KB} kB`,
      measured: `${coverage[0].kb.toFixed(0)} kB`,
      met: coverage[0].kb < COVERAGE_HTML_TARGET_KB ? "met" : "NOT met",
    },
  ]);
  writeResults("cold-views", {
    database: database.kind,
    rounds: ROUNDS,
    answersCold,
    firsts: Object.fromEntries(firsts),
    seconds: Object.fromEntries(seconds),
    resultsCold: Object.fromEntries(resultsCold),
  });
}

runBench(main);
