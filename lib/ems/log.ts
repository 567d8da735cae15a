import "server-only";
import { emsConfig, type EmsLogThreshold } from "./config";

/**
 * Structured JSON logs of the EMS client: one line per event, to stdout (info) or stderr (warn,
 * error). Callers pass only ids, paths, statuses and timings. As a safety net, any field whose
 * name suggests a secret is dropped and any string that looks like an Authorization value is
 * masked, so a mistake elsewhere cannot leak a token into the logs.
 */

export type EmsLogLevel = "info" | "warn" | "error";
export type EmsLogFields = Record<string, string | number | boolean | null | undefined>;

const SECRET_FIELD = /authorization|token(?!Requests)|secret|password|cookie|credential(?!Id)/i;
const SECRET_VALUE = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
const fieldAllowed = new Map<string, boolean>();

function isAllowedField(key: string): boolean {
  let allowed = fieldAllowed.get(key);
  if (allowed === undefined) {
    allowed = !SECRET_FIELD.test(key);
    fieldAllowed.set(key, allowed);
  }
  return allowed;
}

const LEVELS: Record<EmsLogThreshold, number> = { info: 0, warn: 1, error: 2, silent: 3 };

export function emsLog(level: EmsLogLevel, event: string, fields: EmsLogFields = {}): void {
  if (LEVELS[level] < LEVELS[emsConfig().logLevel]) return;
  const entry: Record<string, unknown> = { time: new Date().toISOString(), level, scope: "ems", event };
  for (const key in fields) {
    const value = fields[key];
    if (value === undefined || !isAllowedField(key)) continue;
    // An Authorization value always has a space ("Bearer x"): ids and paths skip the regex.
    entry[key] = typeof value === "string" && value.includes(" ") ? value.replace(SECRET_VALUE, "$1 [redacted]") : value;
  }
  const line = JSON.stringify(entry);
  if (level === "info") console.info(line);
  else if (level === "warn") console.warn(line);
  else console.error(line);
}
