import "server-only";
import { log } from "@/lib/log";

/**
 * The EMS client's log lines, through the portal's one logger (lib/log.ts, which redacts
 * secret-named fields and masks Authorization values). Callers pass only ids, paths, statuses
 * and timings.
 */

export type EmsLogLevel = "info" | "warn" | "error";
export type EmsLogFields = Record<string, string | number | boolean | null | undefined>;

export function emsLog(level: EmsLogLevel, event: string, fields: EmsLogFields = {}): void {
  log[level]({ scope: "ems", event, ...fields });
}

/** Log-safe short id of a credential (the fingerprint is an HMAC: revealing a prefix reveals nothing). */
export function shortId(fingerprint: string): string {
  return fingerprint.slice(0, 12);
}
