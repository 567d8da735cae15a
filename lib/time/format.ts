/**
 * One way to write a moment everywhere in the portal: "27 Nov 2026, 14:05", 24-hour, in the
 * viewer's time zone (the browser's, sent in the `tz` cookie by components/ui/time-zone-script.tsx;
 * UTC until it is known, and then the text says "UTC"). Pure: no clock, no cookies, safe in the
 * browser. components/ui/time.tsx is the `<Time>` that pages use.
 */

/** The cookie the browser's zone travels in (an IANA name, e.g. "Europe/Berlin"). */
export const TIME_ZONE_COOKIE = "tz";

export type Moment = Date | string | number;

// Building an Intl.DateTimeFormat costs far more than using one: one per zone, reused.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    // Numbers only (month names come from MONTHS: ICU writes September "Sep" or "Sept" by version).
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
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** Whether the runtime knows this IANA zone name. */
export function isTimeZone(zone: unknown): zone is string {
  if (typeof zone !== "string" || zone === "" || zone.length > 64) return false;
  if (formatters.has(zone)) return true;
  try {
    formatterFor(zone);
    return true;
  } catch {
    return false;
  }
}

/** A moment as a Date, or null when it is not one (an unparseable string, NaN). */
export function toDate(value: Moment | null | undefined): Date | null {
  if (value === null || value === undefined || value === "") return null;
  let date: Date;
  if (value instanceof Date) date = value;
  else if (typeof value === "number") date = new Date(value);
  else {
    // The EMS writes UTC timestamps as "YYYY-MM-DD HH:MM:SS" (docs/ems-api.md): read them as UTC.
    const iso = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(value) ? `${value.replace(" ", "T")}Z` : value;
    date = new Date(iso);
  }
  return Number.isNaN(date.getTime()) ? null : date;
}

type Parts = Record<"year" | "month" | "day" | "hour" | "minute" | "second" | "timeZoneName", string>;

/** The calendar fields (two digits, 24-hour) and short zone name of a moment in `zone` (UTC when unknown). */
export function zonedParts(date: Date, zone: string): Parts {
  const out: Parts = { year: "", month: "", day: "", hour: "", minute: "", second: "", timeZoneName: zone };
  for (const part of formatterFor(isTimeZone(zone) ? zone : "UTC").formatToParts(date)) if (part.type in out) out[part.type as keyof Parts] = part.value;
  // Some runtimes write midnight as "24" even with h23.
  if (out.hour === "24") out.hour = "00";
  return out;
}

/** "27 Nov 2026, 14:05" in `zone` (UTC when the zone is unknown); "" for what is not a moment. */
export function formatDateTime(value: Moment | null | undefined, zone: string): string {
  const date = toDate(value);
  if (!date) return "";
  const p = zonedParts(date, zone);
  return `${Number(p.day)} ${MONTHS[Number(p.month) - 1]} ${p.year}, ${p.hour}:${p.minute}`;
}

/** "27 Nov 2026" in `zone`. */
export function formatDate(value: Moment | null | undefined, zone: string): string {
  const date = toDate(value);
  if (!date) return "";
  const p = zonedParts(date, zone);
  return `${Number(p.day)} ${MONTHS[Number(p.month) - 1]} ${p.year}`;
}

/** The zone's short name at that moment: "CET", "GMT+1", "UTC". */
export function zoneAbbreviation(value: Moment, zone: string): string {
  const date = toDate(value);
  if (!date) return zone;
  const name = zonedParts(date, zone).timeZoneName;
  return name === "GMT" && zone === "UTC" ? "UTC" : name;
}

/** "2026-11-27T14:05": the form the "as of" picker takes and shows (24-hour, minutes), in `zone`. */
export function isoMinute(value: Moment | null | undefined, zone: string): string {
  const date = toDate(value);
  if (!date) return "";
  const p = zonedParts(date, zone);
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * A wall-clock date and time in a zone ("2026-11-27", "14:05[:00]", "Europe/Berlin") as the moment
 * it names: how an event's local start becomes a moment to show in the viewer's zone. Null when the
 * date is not a date. Across a DST change the offset of the moment itself is used (best effort).
 */
export function wallClockInZone(date: unknown, time: unknown, zone: unknown): Date | null {
  if (typeof date !== "string") return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const hms = typeof time === "string" && /^\d{2}:\d{2}(:\d{2})?$/.test(time) ? time : "00:00:00";
  const [h, m, s] = hms.split(":").map(Number);
  const asUtc = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), h, m, s || 0);
  if (Number.isNaN(asUtc)) return null;
  if (!isTimeZone(zone)) return new Date(asUtc);
  const offset = offsetMs(new Date(asUtc), zone);
  const first = new Date(asUtc - offset);
  const second = offsetMs(first, zone);
  return second === offset ? first : new Date(asUtc - second);
}

function offsetMs(at: Date, zone: string): number {
  const p = zonedParts(at, zone);
  const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/**
 * The viewer's zone from the cookie's value: the browser's own when it is a zone the runtime knows,
 * else UTC, said out loud (`known: false`: the text then ends in "UTC").
 */
export function viewerZoneOf(cookieValue: string | undefined | null): { zone: string; known: boolean } {
  if (cookieValue) {
    let zone = cookieValue;
    try {
      zone = decodeURIComponent(cookieValue);
    } catch {
      return { zone: "UTC", known: false };
    }
    if (isTimeZone(zone)) return { zone, known: true };
  }
  return { zone: "UTC", known: false };
}
