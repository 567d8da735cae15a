/**
 * `npm run bench:sandbox`: throughput and latency of the sandbox beside a bare node:http floor.
 *
 * The servers run in a child process and the load loop in this one, so on a 2-core machine each
 * side has its own core. Everything stays on 127.0.0.1 and every run stops by itself after
 * BENCH_DURATION_MS (default 3000) per scenario, with BENCH_CONNECTIONS (default 16) keep-alive
 * connections. The floor is measured before and after the sandbox scenarios, to show drift caused
 * by other load on the machine.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";

const DURATION_MS = Number(process.env.BENCH_DURATION_MS || 3000);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS || 700);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 16);
const SERVER_FLAG = "--bench-servers";
const LARGE_ACCOUNT = { key: "bench_100k_key", secret: "bench secret+1", groups: 100_000, events: 60, seed: 4242 };

type ServerInfo = { floorUrl: string; sandboxUrl: string; readyMs: number };

// ---- child process: the servers under test ------------------------------------------------------

async function runServers(): Promise<void> {
  const { listenSandbox } = await import("@/lib/sandbox/server");
  const { DEFAULT_ACCOUNTS } = await import("@/lib/sandbox/core/config");

  // The floor: the least any JSON API can do, a fixed 20-item list serialized once.
  const floorItems = Array.from({ length: 20 }, (_, i) => ({
    id: 1000 + i,
    name: `Webhook group #${i + 1} Zürich 🚀`,
    headers: [{ key: "X-Api-Key", value: `k-${i}abcdef0123456789` }],
    notification_emails: [`ops${i}@example.com`],
  }));
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
  process.once("message", () => {
    floor.close();
    void sandbox.close().then(() => process.exit(0));
  });
  // Never outlive the load process.
  process.once("disconnect", () => process.exit(0));
}

// ---- parent process: the load loop -----------------------------------------------------------------

type Scenario = { name: string; url: string; method?: "GET" | "POST"; headers?: Record<string, string>; body?: string };
type Result = { name: string; requests: number; errors: number; rps: number; p50: number; p99: number };

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Sends one request and resolves with its status once the body has been read. */
function send(agent: http.Agent, scenario: Scenario): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(scenario.url, { method: scenario.method ?? "GET", agent, headers: scenario.headers }, (response) => {
      response.on("data", () => {});
      response.on("end", () => resolve(response.statusCode ?? 0));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(scenario.body);
  });
}

/** CONNECTIONS loops, each sending its next request when the last one ends, until the deadline. */
async function measure(scenario: Scenario): Promise<Result> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies: number[] = [];
  let errors = 0;
  let recording = false;
  const loop = async (deadline: number) => {
    while (performance.now() < deadline) {
      const started = performance.now();
      try {
        const status = await send(agent, scenario);
        if (status !== 200) errors++;
      } catch {
        errors++;
      }
      if (recording) latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, () => loop(performance.now() + WARMUP_MS)));
  recording = true;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, () => loop(started + DURATION_MS)));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  const sorted = Float64Array.from(latencies).sort();
  return { name: scenario.name, requests: latencies.length, errors, rps: latencies.length / elapsed, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
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

function printTable(results: Result[], floorRps: number): void {
  const rows = results.map((r) => [
    r.name,
    String(r.requests),
    String(r.errors),
    r.rps.toFixed(0),
    r.p50.toFixed(2),
    r.p99.toFixed(2),
    `${((r.rps / floorRps) * 100).toFixed(0)}%`,
  ]);
  const header = ["scenario", "requests", "errors", "req/s", "p50 ms", "p99 ms", "of floor"];
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
  const servers = fork(fileURLToPath(import.meta.url), [SERVER_FLAG], { execArgv: ["--import", "tsx"], stdio: "inherit" });
  const info = await new Promise<ServerInfo>((resolve, reject) => {
    servers.once("message", (message) => resolve(message as ServerInfo));
    servers.once("error", reject);
    servers.once("exit", (code) => reject(new Error(`the server process exited early (${code})`)));
  });
  console.log(`sandbox ready in ${info.readyMs.toFixed(0)} ms (demo account + ${LARGE_ACCOUNT.groups.toLocaleString("en")} groups, name indexes built)`);
  console.log(`${CONNECTIONS} keep-alive connections, ${DURATION_MS} ms per scenario after ${WARMUP_MS} ms warm-up, node ${process.version}\n`);

  const demoToken = await token(info.sandboxUrl, DEMO_CREDENTIALS.consumerKey, DEMO_CREDENTIALS.consumerSecret);
  const largeToken = await token(info.sandboxUrl, LARGE_ACCOUNT.key, LARGE_ACCOUNT.secret);
  const bearer = (value: string) => ({ authorization: `Bearer ${value}` });
  const api = `${info.sandboxUrl}/api/v1`;

  const floorScenario: Scenario = { name: "floor: node:http, fixed 20-item JSON", url: `${info.floorUrl}/list` };
  const scenarios: Scenario[] = [
    { name: "default page (20 groups)", url: `${api}/webhook-groups`, headers: bearer(demoToken) },
    { name: "per-page=200&expand=webhooks (100k)", url: `${api}/webhook-groups?per-page=200&expand=webhooks`, headers: bearer(largeToken) },
    { name: "search=name=*contains*sync&sort=-name (100k)", url: `${api}/webhook-groups?search=${encodeURIComponent("name=*contains*sync")}&sort=-name`, headers: bearer(largeToken) },
    {
      name: "token endpoint",
      url: `${api}/oauth2/token`,
      method: "POST",
      headers: { authorization: basicAuthorizationHeader(DEMO_CREDENTIALS.consumerKey, DEMO_CREDENTIALS.consumerSecret), "content-type": "application/x-www-form-urlencoded;charset=UTF-8" },
      body: "grant_type=client_credentials",
    },
  ];

  const results: Result[] = [];
  const floorBefore = await measure(floorScenario);
  results.push({ ...floorBefore, name: `${floorScenario.name} (before)` });
  for (const scenario of scenarios) results.push(await measure(scenario));
  const floorAfter = await measure(floorScenario);
  results.push({ ...floorAfter, name: `${floorScenario.name} (after)` });

  const floorRps = (floorBefore.rps + floorAfter.rps) / 2;
  printTable(results, floorRps);

  const defaultPage = results[1];
  const search = results[3];
  console.log("");
  console.log(`target: default page >= 50% of the floor: ${((defaultPage.rps / floorRps) * 100).toFixed(0)}% -> ${defaultPage.rps >= floorRps / 2 ? "met" : "NOT met"}`);
  console.log(`target: 100k-group search p50 < 25 ms: ${search.p50.toFixed(2)} ms -> ${search.p50 < 25 ? "met" : "NOT met"}`);
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
