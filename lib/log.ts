import "server-only";
import pino, { type DestinationStream, type Logger } from "pino";
import pinoPretty from "pino-pretty";
import { logSettings } from "@/lib/env";

/**
 * The one logger of every server-side line: JSON in production (one object a line, for a log
 * drain), readable lines in development. Callers log ids, paths, statuses and timings, never a
 * secret; as a safety net, fields named like secrets are removed (at the top level, one level
 * down and in request headers), and any string that looks like an Authorization value is masked.
 *
 *   log.info({ event: "ems.http", requestId, status }, "EMS call");
 *   const requestLog = log.child({ requestId });
 */

const SECRET_KEYS = [
  "authorization",
  "Authorization",
  "cookie",
  "Cookie",
  "set-cookie",
  "password",
  "passwordHash",
  "currentPassword",
  "newPassword",
  "secret",
  "consumerSecret",
  "clientSecret",
  "token",
  "accessToken",
  "access_token",
  "refreshToken",
  "sessionToken",
  "apiKey",
  "consumerKey",
];

/** pino's redaction paths: each key at the top level, one level down, and in request headers. */
export const REDACTED_PATHS = SECRET_KEYS.flatMap((key) => {
  // A key with a dash needs pino's bracket notation.
  const member = /^\w+$/.test(key) ? `.${key}` : `["${key}"]`;
  return [member.replace(/^\./, ""), `*${member}`, `headers${member}`, `req.headers${member}`];
});

const AUTHORIZATION_VALUE = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;

function maskAuthorizationValues(object: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | null = null;
  for (const key in object) {
    const value = object[key];
    // An Authorization value always has a space ("Bearer x"): ids and paths skip the regex.
    if (typeof value !== "string" || !value.includes(" ")) continue;
    const masked = value.replace(AUTHORIZATION_VALUE, "$1 [redacted]");
    if (masked !== value) (copy ??= { ...object })[key] = masked;
  }
  return copy ?? object;
}

/** A password in a connection string (`postgresql://user:password@host`), as some drivers quote it. */
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^:/@\s]+:)[^@\s]+@/gi;
/** An error message longer than this is cut: a message is a headline, not a dump. */
const ERROR_MESSAGE_MAX = 500;

/** What a log line says about an error. */
export interface LoggedError {
  /** Its class (`PrismaClientKnownRequestError`, `DatabaseError`, `TypeError`, ...). */
  type: string;
  /** Its code, when it has one: a SQLSTATE, a Prisma code (`P1001`), a Node code (`ECONNRESET`). */
  code?: string;
  message: string;
}

/**
 * The one way an error goes into a log line (pino's `err` and `error` fields): its class, code and
 * message, nothing else. pino's default serializer copies every enumerable property, and some
 * errors carry whole objects: pg-boss's errors hold the `pg` client (about 3 kB a line, the backend's
 * processID and secretKey, PostgreSQL's cancel key, among it). No stack: one error, one short line;
 * the class, code, message and the line's event say where to look.
 */
export function serializeError(error: unknown): LoggedError {
  if (typeof error !== "object" || error === null) return { type: typeof error, message: String(error).slice(0, ERROR_MESSAGE_MAX) };
  const e = error as { name?: unknown; code?: unknown; message?: unknown };
  const constructorName = (error as object).constructor?.name;
  // `name` first (bundling may shorten class names; Prisma sets its own), unless it is generic or a
  // lower-case word (pg's DatabaseError is named after the protocol message, "error").
  const named = typeof e.name === "string" && /^[A-Z]/.test(e.name) && e.name !== "Error" ? e.name : undefined;
  const type = named ?? (constructorName && constructorName !== "Object" ? constructorName : "Error");
  const code = typeof e.code === "string" || typeof e.code === "number" ? String(e.code) : undefined;
  const raw = typeof e.message === "string" ? e.message : "";
  const message = raw.replace(URL_PASSWORD, "$1[redacted]@").replace(AUTHORIZATION_VALUE, "$1 [redacted]").slice(0, ERROR_MESSAGE_MAX);
  return code === undefined ? { type, message } : { type, code, message };
}

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

export interface LoggerOptions {
  level?: LogLevel;
  /** Readable lines instead of JSON (development). */
  pretty?: boolean;
  /** Where lines go; process.stdout by default. */
  destination?: DestinationStream;
}

export function createLogger({ level = "info", pretty = false, destination }: LoggerOptions = {}): Logger {
  let stream: DestinationStream = destination ?? process.stdout;
  if (pretty && !destination) {
    // Synchronous and in this thread: pino's worker-thread transports do not survive bundling.
    stream = pinoPretty({ sync: true, colorize: true, ignore: "pid,hostname", translateTime: "HH:MM:ss.l" });
  }
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED_PATHS, remove: true },
      serializers: { err: serializeError, error: serializeError },
      formatters: {
        level: (label) => ({ level: label }),
        log: maskAuthorizationValues,
      },
    },
    stream,
  );
}

const holder = globalThis as unknown as { __emsPortalLogger?: Logger };

/**
 * The process's logger (on globalThis, so that Next's dev server, which may load a module twice,
 * has one). Tests read its lines by spying on process.stdout.write, and may set `log.level`.
 */
export const log: Logger = (holder.__emsPortalLogger ??= createLogger(logSettings()));
