import "server-only";

/**
 * Settings of the EMS client, read from the environment at each use (cheap; lets tests and
 * operators change them without a restart of the module).
 */

export const DEFAULT_RENEW_BEFORE_SECONDS = 300;
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_WEBHOOK_GROUPS_PATH = "/api/v1/webhook-groups";
export const EVENTS_PATH = "/api/v1/events";
export const TOKEN_PATH = "/api/v1/oauth2/token";
/** A token lives 30 minutes from issue (contract section 2): never trust one for longer. */
export const MAX_TOKEN_LIFETIME_MS = 30 * 60 * 1000;
/** A listing costs 10 credits of the rate limit (contract section 5). */
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

/** Renew a token when fewer than this many seconds of its life remain (EMS_TOKEN_RENEW_BEFORE_SECONDS). */
export function renewBeforeMs(): number {
  return numberFromEnv("EMS_TOKEN_RENEW_BEFORE_SECONDS", DEFAULT_RENEW_BEFORE_SECONDS, { min: 0, max: 1800 }) * 1000;
}

/** Timeout of one HTTP attempt (EMS_TIMEOUT_MS). */
export function timeoutMs(): number {
  return numberFromEnv("EMS_TIMEOUT_MS", DEFAULT_TIMEOUT_MS, { min: 1, max: 300_000 });
}

/** Path of the webhook-groups listing: the seed does not show it, so it is configurable. */
export function webhookGroupsPath(): string {
  const raw = process.env.EMS_WEBHOOK_GROUPS_PATH?.trim();
  if (!raw) return DEFAULT_WEBHOOK_GROUPS_PATH;
  if (!raw.startsWith("/") || /[?#\s]/.test(raw)) {
    throw new Error(`EMS_WEBHOOK_GROUPS_PATH must be a path starting with "/" (no query); it is "${raw}".`);
  }
  return raw.replace(/\/+$/, "");
}
