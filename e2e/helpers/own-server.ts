import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "../../scripts/db/embedded-postgres";
import { migrateDeploy } from "../../scripts/db/migrate";
import { startTcpProxy, type TcpProxy } from "../../tests/support/tcp-proxy";
import { freePort } from "./free-port";
import { testServerEnv } from "./server-env";

/**
 * A production server of a spec's own (`node .next/standalone/server.js`, the build the e2e suite
 * serves, with the same environment: ./server-env.ts) on an embedded PostgreSQL of its own, for specs
 * that do what the shared e2e server must never suffer or see: stopping its database under it
 * (e2e/database-outage.spec.ts), an environment of its own and traffic nobody else adds to
 * (e2e/telemetry.spec.ts), a database with nobody in it (e2e/first-run.spec.ts). The database keeps
 * its data directory and port across `stopDatabase()` / `startDatabase()`, as a restarted server does.
 * With `databaseProxy`, the server reaches its database through a TCP proxy the spec can hold and
 * cut (tests/support/tcp-proxy.ts): the database lost while a page's query is in flight.
 */
export interface OwnServer {
  baseUrl: string;
  /** The database itself (not through the proxy), for the spec's own queries. */
  databaseUrl: string;
  /** The server's environment (its secrets included: a spec checks none of them is logged). */
  env: NodeJS.ProcessEnv;
  /** Between the server and its database, when asked for. */
  proxy: TcpProxy | null;
  /** The sandbox admin endpoint's secret (createAdminClient). */
  adminSecret: string;
  /** Every secret it was started with, for scans. */
  secrets: string[];
  /** Stops PostgreSQL as an operator would (smart shutdown, then fast: every session ended). */
  stopDatabase(): Promise<void>;
  /** Starts it again on the same directory and port. */
  startDatabase(): Promise<void>;
  /** What the server printed (for a failing test's report). */
  output(): string;
  /** All it wrote to stdout and to stderr, each apart, since it started. */
  stdout(): string;
  stderr(): string;
  close(): Promise<void>;
}

const SERVER = ".next/standalone/server.js";
/** The variables of its environment that hold a secret. */
const SECRET_VARIABLES = ["NEXTAUTH_SECRET", "CREDENTIAL_ENCRYPTION_KEYS", "EMS_FINGERPRINT_SECRET", "SANDBOX_SIGNING_SECRET", "SANDBOX_ADMIN_SECRET", "METRICS_TOKEN"];

/** Waits for a server process to answer /api/health with 200; throws if it exits first. */
export async function waitForHealth(baseUrl: string, server: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited (code ${server.exitCode})`);
    const ok = await fetch(`${baseUrl}/api/health`).then(
      (response) => response.ok,
      (error: unknown) => (error instanceof TypeError ? false : Promise.reject(error)), // not listening yet
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server did not answer /api/health within ${timeoutMs} ms`);
}

/** `port`: a free one unless given (a spec whose `baseURL` is fixed before the server starts names it). */
export async function startOwnServer({
  port: chosenPort,
  env = {},
  databaseProxy = false,
}: { port?: number; env?: Record<string, string>; databaseProxy?: boolean } = {}): Promise<OwnServer> {
  if (!fs.existsSync(SERVER)) throw new Error(`${SERVER} is missing: run \`npm run build\` first.`);
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), "ems-own-server-"));
  // As root the server runs as the `postgres` user (scripts/db/embedded-postgres.ts): it must reach the directory.
  fs.chmodSync(parent, 0o755);
  const dataDir = path.join(parent, "data");
  let db: EmbeddedPostgres | null = await startEmbeddedPostgres({ dataDir, port: 0 });
  const databaseUrl = db.url;
  const databasePort = Number(new URL(databaseUrl).port);
  const port = chosenPort ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  let output = "";
  const written = { stdout: "", stderr: "" };
  let server: ChildProcess | null = null;
  let proxy: TcpProxy | null = null;
  const serverEnv = { ...testServerEnv({ port, databaseUrl, baseUrl }), ...env };
  try {
    await migrateDeploy(databaseUrl, { quiet: true });
    if (databaseProxy) {
      proxy = await startTcpProxy({ host: "127.0.0.1", port: databasePort });
      serverEnv.DATABASE_URL = proxy.urlFor(databaseUrl);
    }
    server = spawn(process.execPath, [path.resolve(SERVER)], { env: serverEnv, stdio: ["ignore", "pipe", "pipe"] });
    for (const stream of ["stdout", "stderr"] as const) {
      server[stream]!.on("data", (chunk: Buffer) => {
        output = (output + chunk.toString()).slice(-20_000);
        written[stream] = (written[stream] + chunk.toString()).slice(-5_000_000);
      });
    }
    await waitForHealth(baseUrl, server, 60_000);
  } catch (error) {
    server?.kill("SIGKILL");
    await proxy?.close();
    await db.stop();
    fs.rmSync(parent, { recursive: true, force: true });
    throw new Error(`${(error as Error).message}\n${output}`);
  }
  const running = server;
  return {
    baseUrl,
    databaseUrl,
    env: serverEnv,
    proxy,
    adminSecret: serverEnv.SANDBOX_ADMIN_SECRET!,
    secrets: SECRET_VARIABLES.flatMap((name) => (serverEnv[name] ? [serverEnv[name]] : [])),
    async stopDatabase() {
      await db?.stop();
      db = null;
    },
    async startDatabase() {
      db ??= await startEmbeddedPostgres({ dataDir, port: databasePort });
    },
    output: () => output,
    stdout: () => written.stdout,
    stderr: () => written.stderr,
    async close() {
      if (running.exitCode === null) {
        // "close": the process has exited and its stdout and stderr are read to the end.
        const exited = new Promise((resolve) => running.once("close", resolve));
        running.kill("SIGTERM");
        const killer = setTimeout(() => running.kill("SIGKILL"), 10_000);
        await exited;
        clearTimeout(killer);
      }
      await proxy?.close();
      await db?.stop();
      fs.rmSync(parent, { recursive: true, force: true });
    },
  };
}
