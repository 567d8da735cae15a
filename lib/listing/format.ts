import { isTimeZone, toDate, wallClockInZone, zoneAbbreviation, zonedParts } from "@/lib/time/format";

/**
 * How values look in the tables. Event dates and times are written in the event's own time zone:
 * `start_date`/`start_time` are already local to it; `created_at`/`updated_at` are UTC and converted.
 */

/** "2026-05-01 09:00 CEST" for an event's local start or end. */
export function formatEventLocal(date: unknown, time: unknown, zone: unknown): string {
  if (typeof date !== "string" || date === "") return "";
  const hhmm = typeof time === "string" && /^\d{2}:\d{2}/.test(time) ? time.slice(0, 5) : "";
  if (!isTimeZone(zone)) return hhmm ? `${date} ${hhmm}` : date;
  // A date without a time is named by its zone at noon, not at midnight (a DST change may fall then).
  const moment = wallClockInZone(date, hhmm || "12:00", zone);
  const abbreviation = moment ? zoneAbbreviation(moment, zone) : zone;
  return `${date}${hhmm ? ` ${hhmm}` : ""} ${abbreviation}`;
}

/** A UTC timestamp ("YYYY-MM-DD HH:MM:SS" or ISO) shown in the event's zone. */
export function formatUtcInZone(timestamp: unknown, zone: unknown): string {
  if (typeof timestamp !== "string" || timestamp === "") return "";
  const moment = toDate(timestamp);
  if (!moment) return timestamp;
  const p = zonedParts(moment, isTimeZone(zone) ? zone : "UTC");
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
