import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { createRequire } from "node:module";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

// The template below is only valid for the PGlite build that made it. (package.json is not exported.)
const PGLITE_VERSION = (() => {
  try {
    const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
    const manifest = path.join(entry.slice(0, entry.lastIndexOf(`${path.sep}dist${path.sep}`)), "package.json");
    return (JSON.parse(fs.readFileSync(manifest, "utf8")) as { version: string }).version;
  } catch {
    return "unknown";
  }
})();

/**
 * The embedded PostgreSQL used when DATABASE_URL is unset: PGlite (PostgreSQL compiled to
 * WebAssembly) behind a PostgreSQL wire-protocol socket, so the app, the Prisma CLI and the tests
 * all talk to it over a plain `postgresql://` URL with production's adapter-pg.
 *
 * What bit before (../shared/environment.md) and how this module answers it:
 * - The socket server's multiplexer mixes up the messages of concurrent connections. Here a gate
 *   in front of it admits ONE client connection at a time; the others wait their turn (up to
 *   `connectionWaitMs`) instead of being cut off. Every client must still use a pool of one.
 * - The socket server ignores the database name, so `migrate dev`'s shadow database would land
 *   on the main one: a second, in-memory PGlite serves `shadowUrl` (started on first use only, as
 *   a cold PGlite costs seconds and hundreds of MB).
 * - Two processes opening one data directory lose writes silently: a lock file next to the
 *   directory names the owner's pid; a stale lock of a dead process is taken over.
 */

export type EmbeddedPostgresOptions = {
  /** A directory (created if missing, kept across restarts) or "memory://" for a throwaway database. */
  dataDir: string;
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** How long a connection waits for the one in use to close before it is refused. */
  connectionWaitMs?: number;
};

export type EmbeddedPostgres = {
  url: string;
  shadowUrl: string;
  stop(): Promise<void>;
};

/** What the lock file holds; other tools (db:migrate:dev) read it to reuse a running server. */
export type EmbeddedLockInfo = { pid: number; url: string; shadowUrl: string; startedAt: string };

const MEMORY = "memory://";

export class EmbeddedDatabaseLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: EmbeddedLockInfo,
  ) {
    super(
      `The embedded database in ${dataDir} is already open in process ${owner.pid} (${owner.url}). ` +
        `Only one process may open it: stop that process (is \`npm run dev\` running?), or point ` +
        `DATABASE_URL at ${owner.url} to use it from here.`,
    );
    this.name = "EmbeddedDatabaseLockedError";
  }
}

export function lockFilePath(dataDir: string): string {
  return `${path.resolve(dataDir)}.lock`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The running owner of a data directory, or null when it is free (or its lock is stale). */
export function readEmbeddedLock(dataDir: string): EmbeddedLockInfo | null {
  try {
    const info = JSON.parse(fs.readFileSync(lockFilePath(dataDir), "utf8")) as EmbeddedLockInfo;
    return Number.isInteger(info.pid) && isAlive(info.pid) ? info : null;
  } catch {
    return null;
  }
}

function acquireLock(dataDir: string): { write(info: EmbeddedLockInfo): void; release(): void } {
  const file = lockFilePath(dataDir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const claim = { pid: process.pid, url: "", shadowUrl: "", startedAt: new Date().toISOString() };
  for (let attempt = 0; ; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(claim), { flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= 2) throw error;
      const owner = readEmbeddedLock(dataDir);
      // A live owner keeps it (also this very process: one open per directory).
      if (owner) throw new EmbeddedDatabaseLockedError(dataDir, owner);
      fs.rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  return {
    write(info) {
      fs.writeFileSync(file, JSON.stringify(info));
    },
    release() {
      try {
        const info = JSON.parse(fs.readFileSync(file, "utf8")) as EmbeddedLockInfo;
        if (info.pid === process.pid) fs.rmSync(file, { force: true });
      } catch {
        // already gone
      }
    },
  };
}

// A PostgreSQL ErrorResponse, so a client that waited too long gets a readable error.
function fatalMessage(code: string, message: string): Buffer {
  const body = Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${message}\0\0`, "utf8");
  const head = Buffer.alloc(5);
  head.write("E", 0);
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

/**
 * Listens on host:port and forwards one client connection at a time to a PGlite socket server
 * on a private port, started by `startBackend` on first use.
 */
async function startGate(opts: {
  host: string;
  port: number;
  connectionWaitMs: number;
  startBackend: () => Promise<{ port: number }>;
}): Promise<{ port: number; close(): Promise<void> }> {
  let backend: Promise<{ port: number }> | null = null;
  const waiting: net.Socket[] = [];
  const open = new Set<net.Socket>();
  let busy = false;
  let closed = false;

  const admitNext = () => {
    if (busy || closed) return;
    const client = waiting.shift();
    if (!client) return;
    if (client.destroyed) return admitNext();
    busy = true;
    clearTimeout((client as net.Socket & { waitTimer?: NodeJS.Timeout }).waitTimer);
    backend ??= opts.startBackend();
    backend.then(
      ({ port }) => {
        const upstream = net.connect({ host: "127.0.0.1", port });
        open.add(upstream);
        let released = false;
        const release = () => {
          if (released) return;
          released = true;
          client.destroy();
          upstream.destroy();
          open.delete(upstream);
          busy = false;
          setImmediate(admitNext);
        };
        upstream.setNoDelay(true);
        client.setNoDelay(true);
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
        client.on("close", release);
        upstream.on("close", release);
        client.on("error", release);
        upstream.on("error", release);
      },
      (error: Error) => {
        client.end(fatalMessage("58000", `The embedded database failed to start: ${error.message}`));
        busy = false;
        backend = null;
        setImmediate(admitNext);
      },
    );
  };

  const server = net.createServer((client) => {
    if (closed) return client.destroy();
    client.pause();
    open.add(client);
    client.on("close", () => {
      open.delete(client);
      const index = waiting.indexOf(client);
      if (index >= 0) waiting.splice(index, 1);
    });
    client.on("error", () => client.destroy());
    (client as net.Socket & { waitTimer?: NodeJS.Timeout }).waitTimer = setTimeout(() => {
      const index = waiting.indexOf(client);
      if (index < 0) return;
      waiting.splice(index, 1);
      client.end(
        fatalMessage(
          "53300",
          `The embedded database serves one connection at a time and another client kept it for over ` +
            `${Math.round(opts.connectionWaitMs / 1000)} s. Use a pool of one connection (DATABASE_POOL_MAX=1) and close it when done.`,
        ),
      );
    }, opts.connectionWaitMs).unref();
    waiting.push(client);
    admitNext();
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    async close() {
      closed = true;
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// A new PGlite database runs initdb, which takes 4 s on an idle machine and 20-45 s on a busy one.
// The result of one initdb is kept as a template (git-ignored, per PGlite version) and later new
// databases (the shadow database, test databases, a deleted .data/pglite) start from a copy of it,
// several times faster.
const TEMPLATE_FILE = path.resolve(".data/cache", `pglite-${PGLITE_VERSION}-template.tar`);

function isNewDataDir(dataDir: string): boolean {
  if (dataDir === MEMORY) return true;
  try {
    return fs.readdirSync(dataDir).length === 0;
  } catch {
    return true;
  }
}

async function openPglite(dataDir: string): Promise<PGlite> {
  const target = dataDir === MEMORY ? MEMORY : path.resolve(dataDir);
  if (!isNewDataDir(dataDir)) return PGlite.create(target);
  if (fs.existsSync(TEMPLATE_FILE)) {
    try {
      return await PGlite.create({ dataDir: target, loadDataDir: new Blob([fs.readFileSync(TEMPLATE_FILE)]) });
    } catch {
      // An unreadable template: fall back to initdb below, which replaces it.
      if (target !== MEMORY) fs.rmSync(target, { recursive: true, force: true });
    }
  }
  const db = await PGlite.create(target);
  try {
    const dump = await db.dumpDataDir("none");
    fs.mkdirSync(path.dirname(TEMPLATE_FILE), { recursive: true });
    const partial = `${TEMPLATE_FILE}.${process.pid}.partial`;
    fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(partial, TEMPLATE_FILE);
  } catch (error) {
    console.warn(`embedded database: could not save the template (${(error as Error).message}); new databases will start slower.`);
  }
  return db;
}

async function startPglite(dataDir: string): Promise<{ port: number; close(): Promise<void> }> {
  const db = await openPglite(dataDir);
  // The gate already serialises clients; 2 leaves room for the previous connection's handler to
  // finish detaching while the next one attaches.
  const socketServer = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 2 });
  await socketServer.start();
  const port = Number(socketServer.getServerConn().split(":").pop());
  return {
    port,
    async close() {
      await socketServer.stop();
      await db.close();
    },
  };
}

function urlFor(host: string, port: number): string {
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return `postgresql://postgres:postgres@${urlHost}:${port}/postgres?sslmode=disable`;
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const host = options.host ?? "127.0.0.1";
  const connectionWaitMs = options.connectionWaitMs ?? 30_000;
  const onDisk = options.dataDir !== MEMORY;
  const lock = onDisk ? acquireLock(options.dataDir) : null;

  const cleanups: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup().catch((error) => console.error("embedded database: error while stopping:", error));
    }
  };

  try {
    // The port is taken first (a clash fails fast, and early clients just wait in the gate's queue);
    // the main database opens now, the shadow one on its first connection.
    const opening = startPglite(options.dataDir);
    opening.catch(() => {}); // awaited below
    const mainGate = await startGate({ host, port: options.port, connectionWaitMs, startBackend: () => opening }).catch(
      async (error) => {
        await opening.then((db) => db.close()).catch(() => {});
        throw error;
      },
    );
    cleanups.push(() => mainGate.close());
    const main = await opening;
    cleanups.unshift(() => main.close()); // closed after the gates

    let shadow: Promise<{ port: number; close(): Promise<void> }> | null = null;
    const shadowGate = await startGate({
      host,
      port: 0,
      connectionWaitMs,
      startBackend: () => (shadow ??= startPglite(MEMORY)),
    });
    cleanups.push(async () => {
      await shadowGate.close();
      if (shadow) await (await shadow).close();
    });

    const url = urlFor(host, mainGate.port);
    const shadowUrl = urlFor(host, shadowGate.port);
    if (lock) {
      lock.write({ pid: process.pid, url, shadowUrl, startedAt: new Date().toISOString() });
      cleanups.unshift(async () => lock.release());
    }

    let stopping: Promise<void> | null = null;
    return { url, shadowUrl, stop: () => (stopping ??= stopAll()) };
  } catch (error) {
    await stopAll();
    lock?.release();
    throw error;
  }
}
