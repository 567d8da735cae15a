import "server-only";
import { emsEnv } from "@/lib/env";

/** Settings of the EMS client: constants of the contract, and EMS_* variables from lib/env.ts. */

export const EVENTS_PATH = "/api/v1/events";
export const TOKEN_PATH = "/api/v1/oauth2/token";
/** A token lives 30 minutes from issue (docs/ems-api.md §2): never trust one for longer. */
export const MAX_TOKEN_LIFETIME_MS = 30 * 60 * 1000;
/** A listing costs 10 credits of the rate limit (docs/ems-api.md §5). */
export const LISTING_COST = 10;
/** GETs are retried up to twice on 5xx and network errors. */
export const MAX_GET_RETRIES = 2;

export interface EmsConfig {
  /** Renew a token when fewer than this many ms of its life remain (EMS_TOKEN_RENEW_BEFORE_SECONDS, default 300 s). */
  renewBeforeMs: number;
  /** Timeout of one HTTP attempt (EMS_TIMEOUT_MS, default 10000). */
  timeoutMs: number;
  /** Path of the webhook-groups listing (EMS_WEBHOOK_GROUPS_PATH): the contract's path is ours (docs/ems-api.md §4.1). */
  webhookGroupsPath: string;
}

function readConfig(): EmsConfig {
  const env = emsEnv();
  return {
    renewBeforeMs: env.EMS_TOKEN_RENEW_BEFORE_SECONDS * 1000,
    timeoutMs: env.EMS_TIMEOUT_MS,
    webhookGroupsPath: env.EMS_WEBHOOK_GROUPS_PATH,
  };
}

let current: EmsConfig | null = null;

/**
 * The settings, read once (every call path uses them). Call `reloadEmsConfig()` after changing
 * the environment at run time (tests: tests/ems/support/env.ts `withEnv`).
 */
export function emsConfig(): EmsConfig {
  return (current ??= readConfig());
}

export function reloadEmsConfig(): void {
  current = null;
}

export function renewBeforeMs(): number {
  return emsConfig().renewBeforeMs;
}

export function timeoutMs(): number {
  return emsConfig().timeoutMs;
}

export function webhookGroupsPath(): string {
  return emsConfig().webhookGroupsPath;
}
