import "server-only";

/**
 * Structured JSON logs of the EMS client: one line per event, to stdout (info) or stderr (warn,
 * error). Callers pass only ids, paths, statuses and timings. As a safety net, any field whose
 * name suggests a secret is dropped and any string that looks like an Authorization value is
 * masked, so a mistake elsewhere cannot leak a token into the logs.
 */

export type EmsLogLevel = "info" | "warn" | "error";
export type EmsLogFields = Record<string, string | number | boolean | null | undefined>;

const SECRET_FIELD = /authorization|token(?!Requests)|secret|password|cookie|credential(?!Id)/i;
const SECRET_VALUE = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g;

export function emsLog(level: EmsLogLevel, event: string, fields: EmsLogFields = {}): void {
  const entry: Record<string, unknown> = { time: new Date().toISOString(), level, scope: "ems", event };
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (SECRET_FIELD.test(key)) continue;
    entry[key] = typeof value === "string" ? value.replace(SECRET_VALUE, "$1 [redacted]") : value;
  }
  const line = JSON.stringify(entry);
  if (level === "info") console.info(line);
  else if (level === "warn") console.warn(line);
  else console.error(line);
}
