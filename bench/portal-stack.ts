/**
 * What the benches that drive the production server start: a database (a throw-away one on a local
 * PostgreSQL, else the embedded one), the standalone sandbox with the large account beside the
 * default ones, and the portal as `npm start` starts it (its heap cap included). Everything started
 * is stopped by `cleanUp()`, in reverse order. bench:pages and bench:memory use it.
 */
import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { startService, waitForOutput, type Service } from "./processes";
import { createAdminClient, type SandboxAdminClient } from "../lib/sandbox/testing";
import { DEFAULT_ACCOUNTS } from "../lib/sandbox/core/config";

export const ROOT = path.resolve(import.meta.dirname, "..");
export const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
/** The large account (bench:coverage measures the same one): 5,000 groups, 20,000 webhooks, 2,000 events. */
export const LARGE_ACCOUNT = { key: "ems_bench_large_key", secret: "bench-large-secret-5000", groups: 5_000, events: 2_000, seed: 5150 };
const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

const cleanups: Array<() => Promise<void>> = [];
/** Runs at `cleanUp()`, after what was registered later. */
export function onCleanUp(step: () => Promise<void>): void {
  cleanups.push(step);
}
export async function cleanUp(): Promise<void> {
  while (cleanups.length > 0) {
    const step = cleanups.pop()!;
    await step().catch((error: unknown) => console.error(`(clean-up: ${error instanceof Error ? error.message : String(error)})`));
  }
}

/**
 * Runs a bench's `main`: Ctrl-C or SIGTERM stops what it started first; a failure prints its message
 * and, when given, what the portal printed last (a crash, an out-of-memory), and sets exit code 1.
 */
export function runBench(main: () => Promise<void>, portalOutput: () => string | undefined = () => undefined): void {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      void cleanUp().finally(() => process.exit(130));
    });
  }
  main()
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      const output = portalOutput();
      if (output) console.error(output);
      process.exitCode = 1;
    })
    .finally(() => cleanUp());
}

/** A bench's figures as JSON in bench/results/<name>.json, to compare runs by hand. */
export function writeResults(name: string, figures: object): void {
  const out = path.join(ROOT, "bench", "results", `${name}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify({ at: new Date().toISOString(), ...figures }, null, 2)}\n`);
  console.log(`(written to ${path.relative(ROOT, out)})`);
}

export interface BenchDatabase {
  kind: "postgres" | "embedded";
  /** What the bench itself connects to (seeding). */
  url: string;
  /** Pool size the portal gets. */
  poolMax: number;
}

/**
 * A throw-away database on the PostgreSQL at `server` (loopback only: it is created, migrated and
 * dropped), or, when that cannot be reached (or with `embedded`), the embedded PostgreSQL of
 * `npm run dev` in a child process on a throw-away data directory.
 */
export async function startDatabase(server: string, options: { embedded?: boolean } = {}): Promise<BenchDatabase> {
  const at = new URL(server);
  if (!LOOPBACK.has(at.hostname)) throw new Error(`--database must be a PostgreSQL on this machine, not ${at.hostname}: the bench creates and drops a database there.`);
  const { migrateDeploy } = await import("../scripts/db/migrate");
  const { canConnect } = await import("../scripts/db/embedded-postgres");
  if (!options.embedded && (await canConnect(at.toString()))) {
    const name = `ems_bench_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
    const admin = new pg.Client({ connectionString: at.toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    onCleanUp(async () => {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    });
    const url = new URL(at);
    url.pathname = `/${name}`;
    await migrateDeploy(url.toString(), { quiet: true });
    return { kind: "postgres", url: url.toString(), poolMax: 10 };
  }
  console.log(`(no PostgreSQL at ${at.host}${options.embedded ? ", --embedded" : ""}: using the embedded one, on a throw-away directory)`);
  const db = startService("embedded PostgreSQL", process.execPath, ["--import", "tsx", "scripts/db/embedded.ts", "--ephemeral"], { cwd: ROOT, env: { ...process.env } });
  onCleanUp(() => db.stop());
  const [, url] = await waitForOutput(db, /DATABASE_URL=(\S+)/, 60_000);
  return { kind: "embedded", url, poolMax: 10 };
}

/** The standalone sandbox with the default accounts and the large one, at a generous rate limit (the benches measure the portal). */
export async function startSandbox(options: { port?: number } = {}): Promise<{ baseUrl: string; admin: SandboxAdminClient }> {
  const adminSecret = randomBytes(18).toString("base64url");
  const sandbox = startService("sandbox", process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/sandbox.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      SANDBOX_PORT: String(options.port ?? 0),
      SANDBOX_HOST: "127.0.0.1",
      SANDBOX_ADMIN_SECRET: adminSecret,
      SANDBOX_SIGNING_SECRET: randomBytes(32).toString("base64url"),
      SANDBOX_ACCOUNTS: JSON.stringify([...DEFAULT_ACCOUNTS, LARGE_ACCOUNT]),
    },
  });
  onCleanUp(() => sandbox.stop());
  const [, baseUrl] = await waitForOutput(sandbox, /listening on (http:\/\/\S+)/, 60_000);
  const admin = createAdminClient(baseUrl, adminSecret);
  await admin.setRateLimit({ credits: 1_000_000 });
  return { baseUrl, admin };
}

/** The secrets a portal started by a bench gets (fresh each run). */
export function benchSecrets(): Record<"NEXTAUTH_SECRET" | "CREDENTIAL_ENCRYPTION_KEYS" | "EMS_FINGERPRINT_SECRET", string> {
  return {
    NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
    CREDENTIAL_ENCRYPTION_KEYS: `bench:${randomBytes(32).toString("base64")}`,
    EMS_FINGERPRINT_SECRET: randomBytes(32).toString("base64url"),
  };
}

/**
 * The heap limits `npm start` gives the portal (package.json's start script): the old generation's
 * and the young one's. The floor gets the same, so that the ratio compares the apps, not the flags.
 */
export function startNodeOptions(): string[] {
  const scripts = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
  return ["--max-old-space-size", "--max-semi-space-size"].flatMap((flag) => (scripts.start.match(new RegExp(`${flag}=\\d+`, "g")) ?? []).slice(0, 1));
}

/**
 * The portal as `npm start` starts it (a build must exist), on `port`, with `databaseUrl` and the
 * pool size. `traceGc`: the same server with the same heap limit, started by node directly with
 * --trace-gc (which NODE_OPTIONS does not take), so the heap can be read from its output (watchHeap).
 */
export function startPortal(options: {
  port: number;
  databaseUrl: string;
  poolMax: number;
  secrets: Record<string, string>;
  env?: Record<string, string>;
  traceGc?: boolean;
  /** More node flags for the traceGc form (a heap snapshot on a signal, for one). */
  nodeFlags?: string[];
  /** Another standalone build (a copy of an earlier .next/standalone), started with `npm start`'s flags: a "before" beside this build. */
  standaloneDir?: string;
}): Service {
  const [command, args] = options.standaloneDir
    ? [process.execPath, [...startNodeOptions(), path.join(options.standaloneDir, "server.js")]]
    : options.traceGc
      ? [process.execPath, [...startNodeOptions(), "--trace-gc", ...(options.nodeFlags ?? []), path.join(".next", "standalone", "server.js")]]
      : [NPM, ["run", "--silent", "start"]];
  const portal = startService("portal (npm start)", command, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(options.port),
      HOSTNAME: "127.0.0.1",
      ...options.secrets,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: options.databaseUrl,
      DATABASE_POOL_MAX: String(options.poolMax),
      NEXTAUTH_URL: `http://127.0.0.1:${options.port}`,
      SANDBOX_ENABLED: "false",
      ...options.env,
    },
  });
  onCleanUp(() => portal.stop());
  return portal;
}

export type { SandboxAdminClient };
