import { formatDateTime } from "@/lib/time/format";
import { plural } from "@/lib/text/plural";
/**
 * Times on the sessions page: relative ("5 minutes ago") beside the exact time in UTC, which the
 * page states. Rendered on the server, so every reader sees the same words as the tests.
 */
const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** "23 Nov 2026, 16:40 UTC" */
export function exactUtc(at: Date): string {
  return `${formatDateTime(at, "UTC")} UTC`;
}

/** "just now", "5 minutes ago", "yesterday", "in 6 days". */
export function relativeTo(at: Date, now: Date): string {
  const seconds = Math.round((at.getTime() - now.getTime()) / 1000);
  if (Math.abs(seconds) < 60) return "just now";
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.trunc(seconds / size), unit);
  }
  return "just now";
}

/** A length of time in the largest whole unit: "7 days", "12 hours", "30 minutes". */
export function durationWords(seconds: number): string {
  for (const [unit, size] of UNITS.filter(([unit]) => unit === "day" || unit === "hour" || unit === "minute")) {
    if (seconds >= size && seconds % size === 0) {
      const n = seconds / size;
      return plural(n, unit);
    }
  }
  const minutes = Math.round(seconds / 60);
  return plural(minutes, "minute");
}
