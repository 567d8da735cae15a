import "server-only";
import { SafeError } from "@/lib/errors";
import { DATABASE_UNAVAILABLE_DIGEST, DATABASE_UNAVAILABLE_MESSAGE } from "@/lib/http/outage-page";

/**
 * What this process knows about its database being out of reach, and the one rule for telling a
 * lost database from any other failure.
 *
 * Nothing here costs a database round trip while the database answers. The pool of lib/db/prisma.ts
 * reports what it sees for free (a connection that could not be opened, an open one that died: a
 * stopped server ends every session at once) and a successful new connection; a query that fails
 * for want of a connection reports itself through `asDatabaseUnavailable`. Once a failure is noted,
 * the database is *suspect*: proxy.ts then asks `databaseAnswersNow()` before each page, which runs
 * one probe (`SELECT 1`, lib/db/health.ts) for all requests of the same half second, and answers
 * them with the outage page (lib/http/outage-page.ts, 503) until a probe succeeds. A page view
 * therefore finds the database again within about half a second of its return.
 *
 * The state lives on globalThis, not in this module: Next.js bundles proxy.ts apart from the pages
 * and routes, but runs both in the same Node.js process, so both bundles must see one state.
 */

/** A probe's answer is reused for this long by every request that asks (and so bounds the recovery). */
export const PROBE_REUSE_MS = 500;
/** A probe that has not answered by then counts as "unreachable". */
export const PROBE_TIMEOUT_MS = 1_500;

/** The database could not be reached: a SafeError, so forms and routes may show its message. */
export class DatabaseUnavailableError extends SafeError {
  readonly digest = DATABASE_UNAVAILABLE_DIGEST;
  constructor() {
    super(DATABASE_UNAVAILABLE_MESSAGE, "database_unavailable");
    this.name = "DatabaseUnavailableError";
  }
}

export function isDatabaseUnavailableError(error: unknown): error is DatabaseUnavailableError {
  return (
    error instanceof DatabaseUnavailableError || (typeof error === "object" && error !== null && (error as { digest?: unknown }).digest === DATABASE_UNAVAILABLE_DIGEST)
  );
}

// --- Telling a lost database from other failures -------------------------------------------------

/** Prisma's codes for "no connection": can't reach, timed out, server closed the connection, pool timeout. */
const PRISMA_CONNECTION_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
/** @prisma/adapter-pg's kinds of driver error that mean the same. */
const ADAPTER_CONNECTION_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
/** Node's socket errors on the way to the server. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EPIPE", "EHOSTUNREACH", "ENETUNREACH"]);
/**
 * PostgreSQL's SQLSTATEs of a server going away or not taking sessions: class 08 (connection
 * exception), 57P01-57P03 (admin shutdown, crash shutdown, cannot connect now: starting up or
 * shutting down), 53300 (too many connections).
 */
function isConnectionSqlState(code: unknown): boolean {
  return typeof code === "string" && (code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03" || code === "53300");
}

/**
 * pg's own words when the socket closes under a query or a connect, at the start of any line of a
 * message: Prisma quotes a driver's message under its own first line ("Invalid `prisma.x()` invocation:").
 */
const PG_CONNECTION_MESSAGE =
  /^(Connection terminated|Client has encountered a connection error|Connection terminated due to connection timeout|timeout exceeded when trying to connect)/m;

type ErrorLike = { code?: unknown; kind?: unknown; message?: unknown; meta?: unknown; cause?: unknown; originalCode?: unknown };

function lostConnection(error: unknown, depth = 0): boolean {
  if (typeof error !== "object" || error === null || depth > 4) return false;
  const e = error as ErrorLike;
  if (typeof e.code === "string" && (PRISMA_CONNECTION_CODES.has(e.code) || SOCKET_CODES.has(e.code) || isConnectionSqlState(e.code))) return true;
  if (typeof e.kind === "string" && ADAPTER_CONNECTION_KINDS.has(e.kind)) return true;
  // An adapter error of kind "postgres" keeps PostgreSQL's code.
  if (e.kind === "postgres" && isConnectionSqlState(e.code ?? e.originalCode)) return true;
  if (typeof e.message === "string" && PG_CONNECTION_MESSAGE.test(e.message)) return true;
  // Prisma puts the adapter's error under meta.driverAdapterError.cause; a DriverAdapterError under cause.
  const meta = e.meta as { driverAdapterError?: unknown } | undefined;
  return lostConnection(meta?.driverAdapterError, depth + 1) || lostConnection(e.cause, depth + 1);
}

/**
 * The error as a DatabaseUnavailableError when it means "the database cannot be reached" (and
 * the outage noted), else null: every other failure stays what it was. A constraint violation, a
 * timeout of our own or a bug is never mistaken for an outage: only connection failures count.
 */
export function asDatabaseUnavailable(error: unknown): DatabaseUnavailableError | null {
  if (isDatabaseUnavailableError(error)) return error;
  if (!lostConnection(error)) return null;
  noteDatabaseFailure();
  return new DatabaseUnavailableError();
}

// --- The state shared by the proxy and the app -----------------------------------------------------

interface OutageState {
  /** Epoch ms of the first failure noted since the database last answered; null: no doubt. */
  suspectSince: number | null;
  lastProbe: { at: number; reachable: boolean } | null;
  probing: Promise<boolean> | null;
  /** Registered by lib/db/prisma.ts with the client it makes: `SELECT 1` within a timeout; never rejects. */
  probe: ((timeoutMs: number) => Promise<boolean>) | null;
}

const STATE_KEY = Symbol.for("ems-portal.database-outage");

function state(): OutageState {
  const holder = globalThis as unknown as Record<symbol, OutageState | undefined>;
  return (holder[STATE_KEY] ??= { suspectSince: null, lastProbe: null, probing: null, probe: null });
}

/** A connection could not be opened, or an open one died. */
export function noteDatabaseFailure(now = Date.now()): void {
  const current = state();
  current.suspectSince ??= now;
}

/** A new connection was opened: the database answers. */
export function noteDatabaseAnswered(): void {
  const current = state();
  current.suspectSince = null;
  current.lastProbe = null;
}

export function registerDatabaseProbe(probe: (timeoutMs: number) => Promise<boolean>): void {
  state().probe = probe;
}

/** Since when the database has been suspected out of reach (epoch ms), or null. No round trip. */
export function databaseSuspectSince(): number | null {
  return state().suspectSince;
}

/**
 * For proxy.ts, before a page: true at once while nothing suggests an outage (no round trip);
 * after a failure, whether the database answers now: one probe per PROBE_REUSE_MS, shared by every
 * request that asks meanwhile. A probe that answers ends the outage.
 */
export async function databaseAnswersNow(now = Date.now()): Promise<boolean> {
  const current = state();
  if (current.suspectSince === null || !current.probe) return true;
  if (current.lastProbe && now - current.lastProbe.at < PROBE_REUSE_MS) return current.lastProbe.reachable;
  const probe = current.probe;
  current.probing ??= probe(PROBE_TIMEOUT_MS)
    .then((reachable) => {
      if (reachable) noteDatabaseAnswered();
      else current.lastProbe = { at: Date.now(), reachable: false };
      return reachable;
    })
    .finally(() => {
      current.probing = null;
    });
  return current.probing;
}
