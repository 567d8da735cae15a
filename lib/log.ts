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
