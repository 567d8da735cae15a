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
