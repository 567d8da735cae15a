import "server-only";

/** Settings of the EMS client, from the environment (validated, with clear messages). */

export const DEFAULT_RENEW_BEFORE_SECONDS = 300;
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_WEBHOOK_GROUPS_PATH = "/api/v1/webhook-groups";
export const EVENTS_PATH = "/api/v1/events";
export const TOKEN_PATH = "/api/v1/oauth2/token";
/** A token lives 30 minutes from issue (docs/ems-api.md §2): never trust one for longer. */
export const MAX_TOKEN_LIFETIME_MS = 30 * 60 * 1000;
/** A listing costs 10 credits of the rate limit (docs/ems-api.md §5). */
export const LISTING_COST = 10;
/** GETs are retried up to twice on 5xx and network errors. */
export const MAX_GET_RETRIES = 2;

function numberFromEnv(name: string, fallback: number, { min, max }: { min: number; max: number }): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new Error(`${name} must be a number from ${min} to ${max}; it is "${raw}".`);
  }
  return value;
}

export interface EmsConfig {
  /** Renew a token when fewer than this many ms of its life remain (EMS_TOKEN_RENEW_BEFORE_SECONDS, default 300 s). */
  renewBeforeMs: number;
  /** Timeout of one HTTP attempt (EMS_TIMEOUT_MS, default 10000). */
  timeoutMs: number;
  /** Path of the webhook-groups listing (EMS_WEBHOOK_GROUPS_PATH): the seed does not show it. */
  webhookGroupsPath: string;
}

function readConfig(): EmsConfig {
  const rawPath = process.env.EMS_WEBHOOK_GROUPS_PATH?.trim();
  if (rawPath && (!rawPath.startsWith("/") || /[?#\s]/.test(rawPath))) {
    throw new Error(`EMS_WEBHOOK_GROUPS_PATH must be a path starting with "/" (no query); it is "${rawPath}".`);
  }
  return {
    renewBeforeMs: numberFromEnv("EMS_TOKEN_RENEW_BEFORE_SECONDS", DEFAULT_RENEW_BEFORE_SECONDS, { min: 0, max: 1800 }) * 1000,
    timeoutMs: numberFromEnv("EMS_TIMEOUT_MS", DEFAULT_TIMEOUT_MS, { min: 1, max: 300_000 }),
    webhookGroupsPath: rawPath ? rawPath.replace(/\/+$/, "") : DEFAULT_WEBHOOK_GROUPS_PATH,
  };
}

let current: EmsConfig | null = null;

/**
 * The settings, read from the environment once (every call path uses them, and reading
 * process.env is not free). Call `reloadEmsConfig()` after changing the environment at run time.
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
