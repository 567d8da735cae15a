/**
 * `npm run bench:client`: the EMS client against the standalone sandbox over real HTTP.
 *
 * 1. Token requests per 1,000 listing calls at concurrency 1, 10 and 50, each from a cold start
 *    (no token in memory or in EmsTokenCache). Target: 1.
 * 2. Latency of `listWebhookGroups()` beside a bare `fetch` of the same URL with the same token
 *    (plus JSON parsing), interleaved in the same run. Target: client at most 1.2x the bare fetch.
 *
 * The sandbox runs in a child process by default (BENCH_SANDBOX=inline: in this one). Besides
 * wall-clock latency, the CPU time this process spends per call is reported: on a busy shared
 * machine it is the steadier measure of what the client adds. BENCH_CALLS and
 * BENCH_LATENCY_SAMPLES change the sizes.
 *
 * Needs a migrated database for the token cache: DATABASE_URL, else TEST_DATABASE_URL, else the
 * embedded database of `npm run dev` (which must then be running). Writes bench/results/client.json.
 * Runs with the react-server condition (re-executes itself with it when started without), so
 * that the server-only modules load outside Next.
 */
import { fork, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openBenchEnvironment } from "./database";

const CALLS_PER_LEVEL = Number(process.env.BENCH_CALLS || 1000);
const LATENCY_SAMPLES = Number(process.env.BENCH_LATENCY_SAMPLES || 1000);
const CONCURRENCY_LEVELS = [1, 10, 50];
/**
 * "process" (default): the sandbox in a child process, so on a 2-core machine the client and the
 * server each have a core and this process's CPU time is the client's alone; "inline": the
 * sandbox in this process.
 */
const SANDBOX_MODE = process.env.BENCH_SANDBOX === "inline" ? "inline" : "process";
const SERVER_FLAG = "--sandbox-server";

function hasReactServerCondition(): boolean {
  const args = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];
  return args.some(
    (arg, index) => arg === "--conditions=react-server" || arg === "-C=react-server" || ((arg === "--conditions" || arg === "-C") && args[index + 1] === "react-server"),
  );
}

async function runSandboxServer(): Promise<void> {
  const { listenSandbox } = await import("@/lib/sandbox/server");
  const running = await listenSandbox({ port: 0, adminSecret: process.env.BENCH_ADMIN_SECRET });
  process.send!(running.baseUrl);
  process.on("SIGTERM", () => void running.close().finally(() => process.exit(0)));
  process.on("disconnect", () => void running.close().finally(() => process.exit(0)));
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = samples.reduce((sum, value) => sum + value, 0) / samples.length;
  return { mean, p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) };
}

const ms = (value: number) => value.toFixed(2).padStart(8);

async function main(): Promise<void> {
  // One command: a fresh throw-away embedded PostgreSQL for the token cache unless one is given.
  const { stop: stopDatabase } = await openBenchEnvironment({ testDatabase: true });
  // The client logs one JSON line per request: the bench keeps the cost of making each line but
  // counts it instead of printing it (where log lines go, and what that costs, is the host's choice).
  let logBytes = 0;
  console.info = (...args: unknown[]) => void (logBytes += String(args[0]).length + 1);

  const { startSandboxServer, createAdminClient, DEMO_CREDENTIALS } = await import("@/lib/sandbox/testing");

  /** The sandbox in a child process (this file with SERVER_FLAG), on a free port. */
  async function startSandboxProcess() {
    const adminSecret = randomBytes(18).toString("base64url");
    const child = fork(fileURLToPath(import.meta.url), [SERVER_FLAG], { execArgv: process.execArgv, env: { ...process.env, BENCH_ADMIN_SECRET: adminSecret } });
    const baseUrl = await new Promise<string>((resolve, reject) => {
      child.once("message", (message) => resolve(String(message)));
      child.once("exit", (code) => reject(new Error(`the sandbox process exited with ${code}`)));
    });
    return {
      baseUrl,
      admin: createAdminClient(baseUrl, adminSecret),
      close: async () => {
        child.kill("SIGTERM");
      },
    };
  }
  const { getEmsClient, credentialFingerprint, forgetCredential, flushEmsState } = await import("@/lib/ems");
  const { prisma } = await import("@/lib/db/prisma");

  const databaseHost = new URL(process.env.DATABASE_URL!).host;
  try {
    await prisma.emsTokenCache.count();
  } catch (error) {
    console.error(
      `The token cache table is not reachable at ${databaseHost} (${error instanceof Error ? error.message.split("\n")[0] : error}).\n` +
        "Set DATABASE_URL (or TEST_DATABASE_URL) to a migrated database (`npm run db:migrate`), or start `npm run dev` for the embedded one.",
    );
    process.exit(1);
  }

  const sandbox = SANDBOX_MODE === "process" ? await startSandboxProcess() : await startSandboxServer();
  // The sandbox is on loopback: the EMS client may reach it only as a listed private origin.
  process.env.EMS_ALLOW_PRIVATE_ORIGINS = new URL(sandbox.baseUrl).origin;
  const raiseRateLimit = () => sandbox.admin.setRateLimit({ credits: 100_000_000, windowSeconds: 600 });
  const credential = {
    fingerprint: credentialFingerprint(sandbox.baseUrl, DEMO_CREDENTIALS.consumerKey, DEMO_CREDENTIALS.consumerSecret),
    baseUrl: sandbox.baseUrl,
    ...DEMO_CREDENTIALS,
  };
  const client = getEmsClient(credential);
  const query = { perPage: 20 } as const;

  console.log(
    `EMS client benchmark: sandbox ${sandbox.baseUrl} (${SANDBOX_MODE === "process" ? "own process" : "this process"}), database ${databaseHost} (pool ${process.env.DATABASE_POOL_MAX || 10}), Node ${process.version}`,
  );

  // 1. Token requests per 1,000 listing calls.
  const tokenRows: { concurrency: number; calls: number; tokenRequests: number; apiRequests: number; failures: number; seconds: number }[] = [];
  for (const concurrency of CONCURRENCY_LEVELS) {
    await sandbox.admin.reset();
    await raiseRateLimit();
    await forgetCredential(credential.fingerprint);
    let next = 0;
    let failures = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < CALLS_PER_LEVEL) {
          const page = (next++ % 7) + 1;
          await client.listWebhookGroups({ ...query, page }).catch(() => failures++);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const counts = await sandbox.admin.stats();
    tokenRows.push({ concurrency, calls: CALLS_PER_LEVEL, tokenRequests: counts.tokenRequests, apiRequests: counts.apiRequests, failures, seconds });
  }

  // 2. Latency: client vs a bare fetch of the same URL with the same token, interleaved.
  await sandbox.admin.reset();
  await raiseRateLimit();
  await client.listWebhookGroups(query);
  const tokenResponse = await fetch(`${sandbox.baseUrl}/api/v1/oauth2/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(DEMO_CREDENTIALS.consumerKey)}:${encodeURIComponent(DEMO_CREDENTIALS.consumerSecret)}`).toString("base64")}`,
      "content-type": "application/x-www-form-urlencoded;charset=UTF-8",
    },
    body: "grant_type=client_credentials",
  });
  const bareToken = ((await tokenResponse.json()) as { access_token: string }).access_token;
  const url = `${sandbox.baseUrl}/api/v1/webhook-groups?per-page=20`;
  const bare = async () => {
    const response = await fetch(url, { headers: { authorization: `Bearer ${bareToken}`, accept: "application/json" } });
    if (response.status !== 200) throw new Error(`bare fetch answered ${response.status}`);
    await response.json();
  };
  const viaClient = async () => {
    await client.listWebhookGroups(query);
  };
  for (let i = 0; i < 50; i++) {
    await bare();
    await viaClient();
  }
  const bareSamples: number[] = [];
  const clientSamples: number[] = [];
  const cpuMicros = { bare: 0, client: 0 };
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    // Alternate which goes first so neither always runs on a warmer connection.
    const order = i % 2 === 0 ? [bare, viaClient] : [viaClient, bare];
    for (const run of order) {
      const cpu = process.cpuUsage();
      const started = performance.now();
      await run();
      (run === bare ? bareSamples : clientSamples).push(performance.now() - started);
      const used = process.cpuUsage(cpu);
      cpuMicros[run === bare ? "bare" : "client"] += used.user + used.system;
    }
  }
  const cpuPerCall = { bare: cpuMicros.bare / LATENCY_SAMPLES, client: cpuMicros.client / LATENCY_SAMPLES };
  const bareStats = summary(bareSamples);
  const clientStats = summary(clientSamples);
  // Each client sample beside the bare sample taken right before or after it: robust to load
  // that comes and goes on a shared machine.
  const pairedRatios = clientSamples.map((sample, index) => sample / bareSamples[index]).sort((a, b) => a - b);
  const pairedMedian = percentile(pairedRatios, 50);

  await flushEmsState();
  await sandbox.close();
  await prisma.$disconnect();

  console.log("");
  console.log(`Token requests per ${CALLS_PER_LEVEL} listing calls (cold start each; target: 1)`);
  console.log("| concurrency | calls | token requests | API requests | failures | seconds | calls/s |");
  console.log("|---:|---:|---:|---:|---:|---:|---:|");
  for (const row of tokenRows) {
    console.log(
      `| ${row.concurrency} | ${row.calls} | ${row.tokenRequests} | ${row.apiRequests} | ${row.failures} | ${row.seconds.toFixed(2)} | ${Math.round(row.calls / row.seconds)} |`,
    );
  }
  console.log("");
  console.log(`Latency of one listing (per-page=20), ${LATENCY_SAMPLES} interleaved samples each (target: client <= 1.2x bare fetch)`);
  console.log("|  | mean ms | p50 ms | p95 ms | p99 ms |");
  console.log("|---|---:|---:|---:|---:|");
  console.log(`| bare fetch + JSON.parse | ${ms(bareStats.mean)} | ${ms(bareStats.p50)} | ${ms(bareStats.p95)} | ${ms(bareStats.p99)} |`);
  console.log(`| EMS client             | ${ms(clientStats.mean)} | ${ms(clientStats.p50)} | ${ms(clientStats.p95)} | ${ms(clientStats.p99)} |`);
  const ratio = { mean: clientStats.mean / bareStats.mean, p50: clientStats.p50 / bareStats.p50, p95: clientStats.p95 / bareStats.p95 };
  console.log(`| ratio                  | ${ratio.mean.toFixed(2).padStart(7)}x | ${ratio.p50.toFixed(2).padStart(6)}x | ${ratio.p95.toFixed(2).padStart(6)}x |  |`);
  console.log(
    `CPU time of this process per call: bare ${cpuPerCall.bare.toFixed(0)} µs, client ${cpuPerCall.client.toFixed(0)} µs (${(cpuPerCall.client / cpuPerCall.bare).toFixed(2)}x${SANDBOX_MODE === "inline" ? ", server work included" : ", client side only"})`,
  );
  console.log(`client overhead at p50: ${((clientStats.p50 - bareStats.p50) * 1000).toFixed(0)} µs per call; log lines made: ${(logBytes / 1024).toFixed(0)} KiB`);
  console.log(
    `median of paired ratios (client / bare sample next to it): ${pairedMedian.toFixed(2)}x; load average ${os
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(" ")} on ${os.cpus().length} cores`,
  );

  const tokensOk = tokenRows.every((row) => row.tokenRequests === 1 && row.failures === 0);
  const latencyOk = ratio.p50 <= 1.2;
  console.log("");
  console.log(`token target (1 per ${CALLS_PER_LEVEL}): ${tokensOk ? "met" : "MISSED"}; latency target (p50 <= 1.2x): ${latencyOk ? "met" : "MISSED"}`);

  const resultsDir = path.join(process.cwd(), "bench/results");
  fs.mkdirSync(resultsDir, { recursive: true });
  fs.writeFileSync(
    path.join(resultsDir, `client-${SANDBOX_MODE}.json`),
    JSON.stringify(
      {
        at: new Date().toISOString(),
        node: process.version,
        sandbox: SANDBOX_MODE,
        loadAverage: os.loadavg(),
        tokenRows,
        latency: { bare: bareStats, client: clientStats, ratio, pairedMedian, cpuPerCall },
      },
      null,
      2,
    ),
  );
  process.exitCode = tokensOk && latencyOk ? 0 : 2;
  await prisma.$disconnect();
  await stopDatabase();
}

if (process.argv.includes(SERVER_FLAG)) {
  await runSandboxServer();
} else if (!hasReactServerCondition()) {
  const self = fileURLToPath(import.meta.url);
  const child = spawnSync(process.execPath, [...process.execArgv, "--conditions=react-server", self, ...process.argv.slice(2)], { stdio: "inherit" });
  process.exit(child.status ?? 1);
} else {
  main().then(
    () => process.exit(process.exitCode ?? 0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
