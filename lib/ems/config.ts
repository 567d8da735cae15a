import "server-only";
import { emsEnv } from "@/lib/env";

/** Settings of the EMS client: constants of the contract, and EMS_* variables from lib/env.ts. */

export const EVENTS_PATH = "/api/v1/events";
export const WEBHOOKS_PATH = "/api/v1/webhooks";
export const TOKEN_PATH = "/api/v1/oauth2/token";
/** A token lives 30 minutes from issue (docs/ems-api.md §2): never trust one for longer. */
export const MAX_TOKEN_LIFETIME_MS = 30 * 60 * 1000;
/** A listing costs 10 credits of the rate limit (docs/ems-api.md §5). */
export const LISTING_COST = 10;
/** Any other call, a single-record read included, costs 1 (docs/ems-api.md §5). */
export const SINGLE_CALL_COST = 1;
/** GETs are retried up to twice on 5xx and network errors. */
export const MAX_GET_RETRIES = 2;

/** The changes of the setup the client makes (docs/ems-api.md §8), each at one path that EMS_WRITE_PATHS can change. */
export type WriteOperation = "webhooks.create" | "webhooks.update" | "webhooks.delete" | "webhook-groups.create" | "webhook-groups.update" | "webhook-groups.delete";

/** The contract's paths (§8.1, §8.2): `{id}` stands for the record's id. */
export const DEFAULT_WRITE_PATHS: Readonly<Record<WriteOperation, string>> = {
  "webhooks.create": "/api/v1/webhooks/create",
  "webhooks.update": "/api/v1/webhooks/update/{id}",
  "webhooks.delete": "/api/v1/webhooks/{id}",
  "webhook-groups.create": "/api/v1/webhook-groups/create",
  "webhook-groups.update": "/api/v1/webhook-groups/update/{id}",
  "webhook-groups.delete": "/api/v1/webhook-groups/{id}",
};

export interface EmsConfig {
  /** Renew a token when fewer than this many ms of its life remain (EMS_TOKEN_RENEW_BEFORE_SECONDS, default 300 s). */
  renewBeforeMs: number;
  /** Timeout of one HTTP attempt (EMS_TIMEOUT_MS, default 10000). */
  timeoutMs: number;
  /** Path of the webhook-groups listing (EMS_WEBHOOK_GROUPS_PATH): the contract's path is ours (docs/ems-api.md §4.1). */
  webhookGroupsPath: string;
  /** Where each write goes (EMS_WRITE_PATHS over DEFAULT_WRITE_PATHS). */
  writePaths: Readonly<Record<WriteOperation, string>>;
  /** Identical listings of one credential within this long are answered once (EMS_SHARED_ANSWER_SECONDS, default 30 s; 0: off). */
  sharedAnswerMs: number;
  /** Coverage and health checks reuse the account's setup this long (EMS_COVERAGE_CACHE_SECONDS, default 60 s). */
  coverageCacheMs: number;
  /**
   * A group's or an event's page shares its one-record read this long: as long as the event names
   * shown beside it (coverageCacheMs), never shorter than a listing, and not at all when sharing is
   * off. A record's refresh costs 1 credit, so an older answer is one cheap click from current.
   */
  recordAnswerMs: number;
  /** Share of a rate-limit window kept for page views (EMS_BACKGROUND_RESERVE_PERCENT, default 30 %). */
  backgroundReserveShare: number;
  /** Under this share left, the pages say the budget is low (EMS_LOW_BUDGET_PERCENT, default 20 %). */
  lowBudgetShare: number;
}

function readConfig(): EmsConfig {
  const env = emsEnv();
  return {
    renewBeforeMs: env.EMS_TOKEN_RENEW_BEFORE_SECONDS * 1000,
    timeoutMs: env.EMS_TIMEOUT_MS,
    webhookGroupsPath: env.EMS_WEBHOOK_GROUPS_PATH,
    writePaths: { ...DEFAULT_WRITE_PATHS, ...env.EMS_WRITE_PATHS },
    sharedAnswerMs: env.EMS_SHARED_ANSWER_SECONDS * 1000,
    coverageCacheMs: env.EMS_COVERAGE_CACHE_SECONDS * 1000,
    recordAnswerMs: env.EMS_SHARED_ANSWER_SECONDS === 0 ? 0 : Math.max(env.EMS_SHARED_ANSWER_SECONDS, env.EMS_COVERAGE_CACHE_SECONDS) * 1000,
    backgroundReserveShare: env.EMS_BACKGROUND_RESERVE_PERCENT / 100,
    lowBudgetShare: env.EMS_LOW_BUDGET_PERCENT / 100,
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

/** The path of a write, with the record's id put in for `{id}`. */
export function writePath(operation: WriteOperation, id?: number): string {
  const path = emsConfig().writePaths[operation];
  return id === undefined ? path : path.replace("{id}", String(id));
}
