/**
 * `npm run bench:sandbox`: throughput and latency of the sandbox beside a bare node:http floor.
 *
 * The servers run in a child process and the load loop in this one, so on a 2-core machine each
 * side has its own core. Everything stays on 127.0.0.1 and every run stops by itself after
 * BENCH_DURATION_MS (default 3000) per scenario, with BENCH_CONNECTIONS (default 16) keep-alive
 * connections. The floor is measured in slices interleaved with each scenario's (BENCH_ROUNDS,
 * default 6), so the "of floor" ratio compares the two under the same background load. The server
 * process's CPU time per request is reported too: on a busy shared machine it is the steadier
 * measure of what a request costs (throughput = 1 / CPU per request when the server is the limit).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";

const DURATION_MS = Number(process.env.BENCH_DURATION_MS || 3000);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS || 700);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 6);
const SERVER_FLAG = "--bench-servers";
const LARGE_ACCOUNT = { key: "bench_100k_key", secret: "bench secret+1", groups: 100_000, events: 60, seed: 4242 };

type ServerInfo = { floorUrl: string; sandboxUrl: string; readyMs: number };

// ---- child process: the servers under test ------------------------------------------------------

async function runServers(): Promise<void> {
  const { listenSandbox } = await import("@/lib/sandbox/server");
  const { DEFAULT_ACCOUNTS } = await import("@/lib/sandbox/core/config");

  // The floor: the least any JSON API can do, a fixed 20-item list serialized once. Its items are
  // the very groups of the sandbox's default page, so both send the same records.
  const { datasetFor } = await import("@/lib/sandbox/data/datasets");
  const demoGroups = datasetFor(DEFAULT_ACCOUNTS[0]).groups;
  const floorItems = Array.from({ length: 20 }, (_, i) => demoGroups.row(i));
  const floorBody = Buffer.from(JSON.stringify({ items: floorItems }));
  const floor = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "application/json; charset=UTF-8", "content-length": floorBody.length });
    res.end(floorBody);
  });
  await new Promise<void>((resolve) => floor.listen(0, "127.0.0.1", resolve));

  const started = performance.now();
  const sandbox = await listenSandbox({ accounts: [...DEFAULT_ACCOUNTS, LARGE_ACCOUNT], signingSecret: "bench-signing-secret" });
  const readyMs = performance.now() - started;
  // The bench measures serving cost, not the 2,000-credit budget; bookkeeping still runs per call.
  sandbox.sandbox.setRateLimit({ credits: Number.MAX_SAFE_INTEGER });

  const info: ServerInfo = {
    floorUrl: `http://127.0.0.1:${(floor.address() as AddressInfo).port}`,
    sandboxUrl: sandbox.baseUrl,
    readyMs,
  };
  process.send!(info);
  process.on("message", (message) => {
    if (message === "cpu") {
      // CPU time of the server process: a measure of cost per request that other load on the
      // machine does not distort the way wall-clock throughput is distorted.
      const usage = process.cpuUsage();
      process.send!({ cpuMicros: usage.user + usage.system });
      return;
    }
    floor.close();
    void sandbox.close().then(() => process.exit(0));
  });
  // Never outlive the load process.
  process.once("disconnect", () => process.exit(0));
}

// ---- parent process: the load loop -----------------------------------------------------------------

type Scenario = {
  name: string;
  /** a fixed URL, or one per request (to defeat the sandbox's search-mask cache) */
  url: string | (() => string);
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
};
type Result = {
  name: string;
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
  floorRps: number;
  /** server CPU time per request, microseconds */
  cpuPerRequest: number;
  floorCpuPerRequest: number;
};
type Tally = { latencies: number[]; errors: number; seconds: number; cpuMicros: number };

let serverCpu: () => Promise<number> = async () => 0;

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Sends one request and resolves with its status once the body has been read. */
function send(agent: http.Agent, scenario: Scenario): Promise<number> {
  return new Promise((resolve, reject) => {
    const url = typeof scenario.url === "string" ? scenario.url : scenario.url();
    const request = http.request(url, { method: scenario.method ?? "GET", agent, headers: scenario.headers }, (response) => {
      response.on("data", () => {});
      response.on("end", () => resolve(response.statusCode ?? 0));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(scenario.body);
  });
}

/** `connections` loops, each sending its next request when the last one ends, until the slice ends. */
async function runSlice(scenario: Scenario, agent: http.Agent, milliseconds: number, tally?: Tally): Promise<void> {
  const connections = scenario.connections ?? CONNECTIONS;
  const cpuBefore = tally ? await serverCpu() : 0;
  const started = performance.now();
  const deadline = started + milliseconds;
  const loop = async () => {
    while (performance.now() < deadline) {
      const sent = performance.now();
      let ok = false;
      try {
        ok = (await send(agent, scenario)) === 200;
      } catch {
        ok = false;
      }
      if (tally) {
        tally.latencies.push(performance.now() - sent);
        if (!ok) tally.errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  if (tally) {
    tally.seconds += (performance.now() - started) / 1000;
    tally.cpuMicros += (await serverCpu()) - cpuBefore;
  }
}

/**
 * Measures a scenario in ROUNDS short slices, each right after a slice of the floor, so that both
 * see the same background load: this machine is shared, and a floor measured once, minutes apart,
 * says little. The ratio is taken from these paired slices.
 */
async function measure(scenario: Scenario, floor: Scenario): Promise<Result> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: scenario.connections ?? CONNECTIONS });
  const floorAgent = new http.Agent({ keepAlive: true, maxSockets: floor.connections ?? CONNECTIONS });
  await runSlice(floor, floorAgent, WARMUP_MS / 2);
  await runSlice(scenario, agent, WARMUP_MS);
  const tally: Tally = { latencies: [], errors: 0, seconds: 0, cpuMicros: 0 };
  const floorTally: Tally = { latencies: [], errors: 0, seconds: 0, cpuMicros: 0 };
  const slice = DURATION_MS / ROUNDS;
  for (let round = 0; round < ROUNDS; round++) {
    await runSlice(floor, floorAgent, slice, floorTally);
    await runSlice(scenario, agent, slice, tally);
  }
  agent.destroy();
  floorAgent.destroy();
  const sorted = Float64Array.from(tally.latencies).sort();
  return {
    name: scenario.name,
    requests: tally.latencies.length,
    errors: tally.errors,
    rps: tally.latencies.length / tally.seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    floorRps: floorTally.latencies.length / floorTally.seconds,
    cpuPerRequest: tally.cpuMicros / tally.latencies.length,
    floorCpuPerRequest: floorTally.cpuMicros / floorTally.latencies.length,
  };
}

async function token(sandboxUrl: string, key: string, secret: string): Promise<string> {
  const { basicAuthorizationHeader } = await import("@/lib/sandbox/core/basic-credentials");
  const response = await fetch(`${sandboxUrl}/api/v1/oauth2/token`, {
    method: "POST",
    headers: { authorization: basicAuthorizationHeader(key, secret), "content-type": "application/x-www-form-urlencoded;charset=UTF-8" },
    body: "grant_type=client_credentials",
  });
  if (!response.ok) throw new Error(`token request failed: ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

function printTable(results: Result[]): void {
  const rows = results.map((r) => [
    r.name,
    String(r.requests),
    String(r.errors),
    r.rps.toFixed(0),
    r.p50.toFixed(2),
    r.p99.toFixed(2),
    r.floorRps.toFixed(0),
    `${((r.rps / r.floorRps) * 100).toFixed(0)}%`,
    r.cpuPerRequest.toFixed(0),
    `${((r.floorCpuPerRequest / r.cpuPerRequest) * 100).toFixed(0)}%`,
  ]);
  const header = ["scenario", "requests", "errors", "req/s", "p50 ms", "p99 ms", "floor req/s", "of floor", "server CPU µs/req", "of floor (CPU)"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${widths.map((w, i) => (i === 0 ? `:${"-".repeat(w + 1)}` : `${"-".repeat(w + 1)}:`)).join("|")}|`);
  for (const row of rows) console.log(line(row));
}

async function main(): Promise<void> {
  const { DEMO_CREDENTIALS } = await import("@/lib/sandbox/demo-credentials");
  const { basicAuthorizationHeader } = await import("@/lib/sandbox/core/basic-credentials");
  // The child runs this same file in server mode; tsx is registered in it to load TypeScript.
  // BENCH_PROFILE_DIR=/tmp/x writes a CPU profile of the server process there.
  const profile = process.env.BENCH_PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
  const servers = fork(fileURLToPath(import.meta.url), [SERVER_FLAG], { execArgv: ["--import", "tsx", ...profile], stdio: "inherit" });
  const info = await new Promise<ServerInfo>((resolve, reject) => {
    servers.once("message", (message) => resolve(message as ServerInfo));
    servers.once("error", reject);
    servers.once("exit", (code) => reject(new Error(`the server process exited early (${code})`)));
  });
  serverCpu = () =>
    new Promise((resolve) => {
      servers.once("message", (message) => resolve((message as { cpuMicros: number }).cpuMicros));
      servers.send("cpu");
    });
  console.log(`sandbox ready in ${info.readyMs.toFixed(0)} ms (demo account + ${LARGE_ACCOUNT.groups.toLocaleString("en")} groups, name indexes built)`);
  console.log(`${CONNECTIONS} keep-alive connections, ${DURATION_MS} ms per scenario after ${WARMUP_MS} ms warm-up, node ${process.version}\n`);

  const demoToken = await token(info.sandboxUrl, DEMO_CREDENTIALS.consumerKey, DEMO_CREDENTIALS.consumerSecret);
  const largeToken = await token(info.sandboxUrl, LARGE_ACCOUNT.key, LARGE_ACCOUNT.secret);
  const bearer = (value: string) => ({ authorization: `Bearer ${value}` });
  const api = `${info.sandboxUrl}/api/v1`;

  // Real words of the generated names, far more of them than the sandbox's search-mask cache holds
  // (16), taken in turn: every request is a full scan of 100,000 names, with realistic hit counts.
  const { GROUP_PURPOSES } = await import("@/lib/sandbox/data/vocabulary");
  const needles = [...new Set(GROUP_PURPOSES.flatMap((purpose) => purpose.toLowerCase().split(/\s+/)).filter((word) => word.length >= 3))];
  // `_` is ignored by the sandbox but makes every URL distinct, so no answer or query cache helps.
  let next = 0;
  const rotatingSearch = () => `${api}/webhook-groups?search=${encodeURIComponent(`name=*contains*${needles[next % needles.length]}`)}&sort=-name&_=${next++}`;
  let nonce = 0;
  const uncachedDefaultPage = () => `${api}/webhook-groups?_=${nonce++}`;

  const floorScenario: Scenario = { name: "floor: node:http, fixed 20-item JSON", url: `${info.floorUrl}/list` };
  const floorAlone = await measure(floorScenario, floorScenario);
  const scenarios: Scenario[] = [
    { name: "default page (20 groups)", url: `${api}/webhook-groups`, headers: bearer(demoToken) },
    { name: "default page, every URL distinct (no answer cache)", url: uncachedDefaultPage, headers: bearer(demoToken) },
    { name: "per-page=200&expand=webhooks (100k)", url: `${api}/webhook-groups?per-page=200&expand=webhooks`, headers: bearer(largeToken) },
    {
      name: "search=name=*contains*sync&sort=-name (100k, repeated)",
      url: `${api}/webhook-groups?search=${encodeURIComponent("name=*contains*sync")}&sort=-name`,
      headers: bearer(largeToken),
    },
    { name: "search …*contains*<new needle>&sort=-name (100k, uncached)", url: rotatingSearch, headers: bearer(largeToken) },
    { name: "same, 1 connection (latency without queueing)", url: rotatingSearch, headers: bearer(largeToken), connections: 1 },
    {
      name: "token endpoint",
      url: `${api}/oauth2/token`,
      method: "POST",
      headers: {
        authorization: basicAuthorizationHeader(DEMO_CREDENTIALS.consumerKey, DEMO_CREDENTIALS.consumerSecret),
        "content-type": "application/x-www-form-urlencoded;charset=UTF-8",
      },
      body: "grant_type=client_credentials",
    },
  ];

  // BENCH_ONLY=token (a substring of a scenario name) measures just the matching scenarios.
  const only = process.env.BENCH_ONLY?.toLowerCase();
  const results: Result[] = [];
  results.push({ ...floorAlone, name: "floor itself (paired with itself)" });
  for (const scenario of scenarios) {
    if (!only || scenario.name.toLowerCase().includes(only)) results.push(await measure(scenario, floorScenario));
  }
  printTable(results);

  const defaultPage = results.find((result) => result.name.startsWith("default page ("));
  const searches = results.filter((result) => result.name.startsWith("search") || result.name.startsWith("same"));
  const uncachedDefault = results.find((result) => result.name.startsWith("default page, every"));
  console.log("");
  if (defaultPage) {
    const share = defaultPage.rps / defaultPage.floorRps;
    const cpuShare = defaultPage.floorCpuPerRequest / defaultPage.cpuPerRequest;
    console.log(
      `target: default page >= 50% of the floor's throughput: ${(share * 100).toFixed(0)}% measured -> ${share >= 0.5 ? "met" : "NOT met"}; ` +
        `by server CPU per request ${(cpuShare * 100).toFixed(0)}% -> ${cpuShare >= 0.5 ? "met" : "NOT met"}`,
    );
  }
  if (uncachedDefault) {
    console.log(
      `(without the answer cache: ${((uncachedDefault.rps / uncachedDefault.floorRps) * 100).toFixed(0)}% measured, ${((uncachedDefault.floorCpuPerRequest / uncachedDefault.cpuPerRequest) * 100).toFixed(0)}% by CPU)`,
    );
  }
  for (const search of searches) {
    console.log(`target: 100k-group search p50 < 25 ms [${search.name}]: ${search.p50.toFixed(2)} ms -> ${search.p50 < 25 ? "met" : "NOT met"}`);
  }
  if (results.some((r) => r.errors > 0)) console.log("warning: some requests failed (see the errors column)");

  servers.removeAllListeners("exit");
  const exited = new Promise((resolve) => servers.once("exit", resolve));
  servers.send("stop");
  await exited;
}

if (process.argv.includes(SERVER_FLAG)) {
  void runServers();
} else {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
