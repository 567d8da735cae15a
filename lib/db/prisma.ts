import "server-only";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { clearLogs } from "@prisma/debug";
import { Debug as RuntimeDebug } from "@prisma/client/runtime/client";
import { databaseEnv } from "@/lib/env";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { setPoolStatsSource } from "@/lib/telemetry/metrics";
import { noteDatabaseAnswered, noteDatabaseFailure, registerDatabaseProbe } from "./outage";

/**
 * A pg client that tells lib/db/outage.ts what it sees, at no cost: a connection that could not
 * be opened or that died (a stopped server ends every session, idle ones included) makes the
 * database suspect; a connection opened makes it answer again. The pool (pg-pool) makes one per
 * connection and connects it with a callback.
 */
class WatchedClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    // Beside the pool's own listeners, which remove the dead client; this one only takes note.
    this.on("error", () => noteDatabaseFailure());
    forgetPrismaDebugHistoryOnQuery(this);
  }

  override connect(): Promise<pg.Client>;
  override connect(callback: (err: Error) => void): void;
  override connect(callback?: (err: Error) => void): Promise<pg.Client> | void {
    if (!callback) return new Promise((resolve, reject) => this.connect((error) => (error ? reject(error) : resolve(this))));
    super.connect((error: Error | null | undefined) => {
      if (error) noteDatabaseFailure();
      else noteDatabaseAnswered();
      callback(error as Error);
    });
  }
}

/**
 * @prisma/debug keeps the arguments of its last 100 calls even while debugging is off (for its crash
 * reports), and adapter-pg calls it with every statement and its parameters just before sending
 * it: the values of the last 100 statements stayed alive, shared answers and setup results of up to
 * 2 MB of ciphertext each, a plan's batches of before-states. A heap snapshot after a large
 * account's first Health, Coverage and list views (`npm run bench:memory -- --heap-snapshots`)
 * found 21 MB of ciphertext held by that history alone, of a 256 MB heap. Emptied as each statement
 * goes out: what a statement holds is then freed when it is done. Nothing of the portal reads it.
 */
function forgetPrismaDebugHistoryOnQuery(client: pg.Client): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    clearLogs();
    forgetClientRuntimeHistory();
    return query(...args);
  };
}

/**
 * Prisma's client runtime bundles its own copy of that debug module, with its own history of 100
 * calls, and logs each statement's plan into it ("query plan created"): a raw statement's plan holds
 * its values, another's its whole structure (a batch of 500 rows' was 4,000 parameters with their
 * objects). A heap snapshot after two 5,000-step drafts found about 17 MB held by it. It has no
 * way to empty it but to be written to: as each statement goes out, 100 empty calls push out what
 * was there (its namespace is never enabled, so nothing is printed).
 */
const runtimeDebug = RuntimeDebug("ems:forget");
const RUNTIME_HISTORY = 100;
function forgetClientRuntimeHistory(): void {
  // Someone debugging with DEBUG=ems:* (or *) keeps the history, and would not want 100 lines a statement.
  if (RuntimeDebug.enabled("ems:forget")) return;
  for (let call = 0; call < RUNTIME_HISTORY; call++) runtimeDebug("");
}

/** The one Prisma client of this process, with a pool of DATABASE_POOL_MAX connections (default 10). */
function createPrismaClient(): PrismaClient {
  // `npm run dev` sets both to the embedded database; in production DATABASE_URL is required.
  const { DATABASE_URL, DATABASE_POOL_MAX } = databaseEnv();
  const pool = new pg.Pool({
    connectionString: DATABASE_URL,
    max: DATABASE_POOL_MAX,
    Client: WatchedClient,
    // One connection stays open when idle (the rest close after 10 s): when the server stops or
    // restarts, it is ended at once and the outage is known before a page has to fail on it.
    // It never keeps a script's process alive (allowExitOnIdle).
    min: 1,
    allowExitOnIdle: true,
  });
  // /api/metrics reads the pool's figures.
  setPoolStatsSource(() => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }));
  const client = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  registerDatabaseProbe((timeoutMs) => answersWithin(client, timeoutMs));
  return client;
}

/** `SELECT 1` within the timeout; false (never a rejection) when it fails or is late. */
export async function answersWithin(client: PrismaClient, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const answered = client.$queryRaw<Array<{ ok: number }>>`SELECT 1 AS ok`.then(
    (rows) => rows[0]?.ok === 1,
    () => false,
  );
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}

const globalForPrisma = globalThis as unknown as { emsPrisma?: PrismaClient };

/** Lazily created so that importing this module never needs a database (build, type-check). */
export function getPrisma(): PrismaClient {
  if (!globalForPrisma.emsPrisma) globalForPrisma.emsPrisma = createPrismaClient();
  return globalForPrisma.emsPrisma;
}

export const prisma: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, property) {
    const client = getPrisma() as unknown as Record<string | symbol, unknown>;
    const value = client[property];
    return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(client) : value;
  },
});

export type { PrismaClient };
export type TransactionClient = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
