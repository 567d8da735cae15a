/**
 * How values look in the tables. Event dates and times are written in the event's own time zone:
 * `start_date`/`start_time` are already local to it; `created_at`/`updated_at` are UTC and converted.
 */

// One formatter per zone, reused: building an Intl.DateTimeFormat costs far more than using one, and
// a table of events formats several dates a row.
const zonedFormatters = new Map<string, Intl.DateTimeFormat>();

export function isValidTimeZone(zone: unknown): zone is string {
  if (typeof zone !== "string" || zone === "") return false;
  if (zonedFormatters.has(zone)) return true;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The calendar fields and short zone name of a moment in a zone (24-hour clock). */
function zonedParts(zone: string, at: Date): Record<"year" | "month" | "day" | "hour" | "minute" | "second" | "timeZoneName", string> {
  let formatter = zonedFormatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      timeZoneName: "short",
    });
    zonedFormatters.set(zone, formatter);
  }
  const out = { year: "", month: "", day: "", hour: "", minute: "", second: "", timeZoneName: zone };
  for (const part of formatter.formatToParts(at)) if (part.type in out) out[part.type as keyof typeof out] = part.value;
  return out;
}

/** The short name of a zone at a moment, e.g. "CEST" or "GMT+2". */
export function zoneAbbreviation(zone: string, at: Date): string {
  try {
    return zonedParts(zone, at).timeZoneName;
  } catch {
    return zone;
  }
}

/** A local wall-clock date and time in a zone, as the moment it names (best effort across DST). */
function wallClockToDate(date: string, time: string, zone: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const [h, m, s] = (/^\d{2}:\d{2}(:\d{2})?$/.test(time) ? time : "12:00:00").split(":").map(Number);
  const asUtc = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), h, m, s || 0);
  const offset = zoneOffsetMs(zone, new Date(asUtc));
  return new Date(asUtc - offset);
}

function zoneOffsetMs(zone: string, at: Date): number {
  const p = zonedParts(zone, at);
  const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour) % 24, Number(p.minute), Number(p.second));
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** "2026-05-01 09:00 CEST" for an event's local start or end. */
export function formatEventLocal(date: unknown, time: unknown, zone: unknown): string {
  if (typeof date !== "string" || date === "") return "";
  const hhmm = typeof time === "string" && /^\d{2}:\d{2}/.test(time) ? time.slice(0, 5) : "";
  if (!isValidTimeZone(zone)) return hhmm ? `${date} ${hhmm}` : date;
  const moment = wallClockToDate(date, typeof time === "string" ? time : "", zone);
  const abbreviation = moment ? zoneAbbreviation(zone, moment) : zone;
  return `${date}${hhmm ? ` ${hhmm}` : ""} ${abbreviation}`;
}

/** A UTC timestamp ("YYYY-MM-DD HH:MM:SS" or ISO) shown in the event's zone. */
export function formatUtcInZone(timestamp: unknown, zone: unknown): string {
  if (typeof timestamp !== "string" || timestamp === "") return "";
  const iso = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(timestamp) ? `${timestamp.replace(" ", "T")}Z` : timestamp;
  const moment = new Date(iso);
  if (Number.isNaN(moment.getTime())) return timestamp;
  const p = zonedParts(isValidTimeZone(zone) ? zone : "UTC", moment);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute} ${p.timeZoneName}`;
}

const countFormat = new Intl.NumberFormat("en-US");

export function formatCount(n: number): string {
  return countFormat.format(n);
}

/** Cell text for any value the API may send (arrays of strings, objects, booleans, numbers). */
export function plainValue(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (Array.isArray(value) && value.every((v) => typeof v === "string" || typeof v === "number")) return value.join(", ");
  return JSON.stringify(value);
}
