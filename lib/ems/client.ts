import "server-only";
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { EVENTS_PATH, LISTING_COST, webhookGroupsPath } from "./config";
import { markCredentialFailing, noteCredentialWorking } from "./credential-state";
import { normalizeBaseUrl, type EmsCredential } from "./credentials";
import { CredentialsRejectedError, EmsBadRequestError, EmsError, InvalidResponseError, RateLimitedError, UpstreamUnavailableError } from "./errors";
import { emsHttp, sleep } from "./http";
import { emsLog, shortId } from "./log";
import type { EmsResource } from "./contract";
import { buildQueryString, type EventQuery, type QueryFor, type WebhookGroupQuery } from "./query";
import { currentRateLimit, parseRateLimit, recordRateLimit, retryAfterSeconds, type RateLimit } from "./rate-limit";
import {
  apiErrorMessage,
  emsEventSchema,
  parseListBody,
  ResponseShapeError,
  webhookGroupSchema,
  type EmsEvent,
  type ListMeta,
  type WebhookGroup,
} from "./responses";
import { ems, type CachedToken } from "./state";
import { getToken, invalidateToken } from "./token";

export type CallOptions = {
  signal?: AbortSignal;
  /** Sleep through a rate limit instead of throwing RateLimitedError (long jobs; `pages()` defaults to true). */
  waitForRateLimit?: boolean;
  requestId?: string;
  /** Per-attempt timeout; default EMS_TIMEOUT_MS. */
  timeoutMs?: number;
};

export type ListResult<T> = { items: T[]; meta: ListMeta; rateLimit: RateLimit | null };

export type ItemFor<R extends EmsResource> = R extends "events" ? EmsEvent : WebhookGroup;

export interface EmsClient {
  readonly fingerprint: string;
  listWebhookGroups(query?: WebhookGroupQuery, options?: CallOptions): Promise<ListResult<WebhookGroup>>;
  listEvents(query?: EventQuery, options?: CallOptions): Promise<ListResult<EmsEvent>>;
  list<R extends EmsResource>(resource: R, query?: QueryFor<R>, options?: CallOptions): Promise<ListResult<ItemFor<R>>>;
  /**
   * Every page of a query from `query.page` (default 1) to `_meta.pageCount`. Stops when the
   * service hands back a page it already returned (production answers past the end with the last
   * page again), waits out rate limits, and keeps 10% of the budget for interactive page renders.
   */
  pages<R extends EmsResource>(resource: R, query?: QueryFor<R>, options?: CallOptions): AsyncIterable<ListResult<ItemFor<R>>>;
  /** Gets a token (the cached one when fresh) and lists one webhook group. */
  testConnection(options?: CallOptions): Promise<{ expiresAt: Date; webhookGroupCount: number }>;
}

/** At most this many waits for a rate limit within one call (each as long as the API asks). */
const MAX_RATE_LIMIT_WAITS = 5;
/** Share of the rate limit `pages()` leaves for page renders. */
const PAGES_RESERVE_SHARE = 0.1;

export function getEmsClient(credential: EmsCredential): EmsClient {
  if (!credential.fingerprint) throw new Error("getEmsClient: the credential has no fingerprint (use credentialFingerprint()).");
  const normalized: EmsCredential = { ...credential, baseUrl: normalizeBaseUrl(credential.baseUrl) };
  const client: EmsClient = {
    fingerprint: normalized.fingerprint,
    listWebhookGroups: (query = {}, options = {}) => list(normalized, "webhook-groups", query, options),
    listEvents: (query = {}, options = {}) => list(normalized, "events", query, options),
    list: (resource, query, options = {}) => list(normalized, resource, query ?? ({} as QueryFor<typeof resource>), options),
    pages: (resource, query, options = {}) => pages(normalized, resource, query ?? ({} as QueryFor<typeof resource>), options),
    testConnection: async (options = {}) => {
      const requestId = options.requestId ?? randomUUID();
      const result = await list(normalized, "webhook-groups", { fields: ["id"], perPage: 1 }, { ...options, requestId });
      const token = ems.tokens.get(normalized.fingerprint) ?? (await getToken(normalized, { signal: options.signal, requestId }));
      return { expiresAt: new Date(token.expiresAt), webhookGroupCount: result.meta.totalCount };
    },
  };
  return client;
}

const ITEM_SCHEMAS = { "webhook-groups": webhookGroupSchema, events: emsEventSchema } as const;

async function waitOrThrow(seconds: number, options: CallOptions, waits: number, detail: string, rateLimit: RateLimit | null): Promise<void> {
  if (!options.waitForRateLimit || waits >= MAX_RATE_LIMIT_WAITS) throw new RateLimitedError(seconds, detail, rateLimit);
  emsLog("info", "ems.rate_limit_wait", { requestId: options.requestId, seconds, detail });
  // A little jitter so that waiting jobs do not all return in the same millisecond.
  await sleep(seconds * 1000 + Math.random() * 250, options.signal);
}

function secondsUntil(date: Date): number {
  return Math.max(1, Math.ceil((date.getTime() - Date.now()) / 1000));
}

async function list<R extends EmsResource>(
  credential: EmsCredential,
  resource: R,
  query: QueryFor<R>,
  callOptions: CallOptions,
): Promise<ListResult<ItemFor<R>>> {
  const options: CallOptions = { ...callOptions, requestId: callOptions.requestId ?? randomUUID() };
  const requestId = options.requestId!;
  const { fingerprint } = credential;
  const queryString = buildQueryString(resource, query);
  const path = resource === "events" ? EVENTS_PATH : webhookGroupsPath();
  const url = `${credential.baseUrl}${path}${queryString ? `?${queryString}` : ""}`;
  const started = performance.now();
  let refused: CachedToken | undefined;
  let rateLimitWaits = 0;
  try {
    for (;;) {
      // Known to be over budget until the window resets: do not spend a round trip on a sure 429.
      const budget = currentRateLimit(fingerprint);
      if (budget && budget.remaining < LISTING_COST && budget.resetAt.getTime() > Date.now()) {
        await waitOrThrow(secondsUntil(budget.resetAt), options, rateLimitWaits++, "rate limit budget used up", budget);
        continue;
      }
      let token: CachedToken;
      try {
        token = await getToken(credential, { signal: options.signal, requestId, rejected: refused?.value });
      } catch (error) {
        if (error instanceof RateLimitedError) {
          await waitOrThrow(error.retryAfterSeconds, options, rateLimitWaits++, "token endpoint rate limited", error.rateLimit);
          continue;
        }
        throw error;
      }
      const response = await emsHttp({
        method: "GET",
        url,
        path,
        headers: { Authorization: `Bearer ${token.value}`, Accept: "application/json" },
        signal: options.signal,
        requestId,
        fingerprint: shortId(fingerprint),
        retry: true,
        timeoutMs: options.timeoutMs,
      });
      const rateLimit = parseRateLimit(response.headers, response.receivedAt);
      if (rateLimit) recordRateLimit(fingerprint, rateLimit, response.receivedAt);

      if (response.status === 401) {
        await invalidateToken(fingerprint, token);
        if (!refused) {
          refused = token;
          emsLog("info", "ems.token_refused", { requestId, fingerprint: shortId(fingerprint), action: "renew_and_retry" });
          continue;
        }
        const reason = "The EMS API refused a newly issued token as well (401 twice in a row).";
        await markCredentialFailing(fingerprint, reason);
        throw new CredentialsRejectedError(reason);
      }
      if (response.status === 429) {
        await waitOrThrow(retryAfterSeconds(response.headers, response.receivedAt), options, rateLimitWaits++, "API answered 429", rateLimit ?? currentRateLimit(fingerprint));
        continue;
      }
      if (response.status >= 500) {
        throw new UpstreamUnavailableError(`${path} answered ${response.status} (after retries)`, { status: response.status });
      }
      if (response.status !== 200) {
        throw new EmsBadRequestError(apiErrorMessage(response.bodyText) ?? `the API answered ${response.status}`, response.status);
      }
      let body: unknown;
      try {
        body = JSON.parse(response.bodyText);
      } catch {
        throw new InvalidResponseError(`${path} answered 200 with a body that is not JSON`, 200);
      }
      let parsed;
      try {
        parsed = parseListBody(body, ITEM_SCHEMAS[resource] as unknown as z.ZodType<ItemFor<R>>, response.headers, query);
      } catch (error) {
        if (error instanceof ResponseShapeError) throw new InvalidResponseError(`${path}: ${error.message}`, 200);
        throw error;
      }
      await noteCredentialWorking(fingerprint);
      return { items: parsed.items, meta: parsed.meta, rateLimit };
    }
  } catch (error) {
    // Refusals (4xx) and callers giving up (aborts) are part of normal operation; the rest is a warning.
    const expected = (error instanceof EmsError && error.status !== undefined && error.status < 500) || (error instanceof Error && error.name === "AbortError");
    emsLog(expected ? "info" : "warn", "ems.call_failed", {
      requestId,
      fingerprint: shortId(fingerprint),
      method: "GET",
      path,
      status: error instanceof EmsError ? (error.status ?? null) : null,
      durationMs: Math.round(performance.now() - started),
      errorName: error instanceof Error ? error.name : "Error",
      errorCode: error instanceof EmsError ? error.code : undefined,
      detail: error instanceof EmsError ? error.detail : undefined,
    });
    throw error;
  }
}

async function* pages<R extends EmsResource>(
  credential: EmsCredential,
  resource: R,
  query: QueryFor<R>,
  callOptions: CallOptions,
): AsyncGenerator<ListResult<ItemFor<R>>> {
  const options: CallOptions = { ...callOptions, waitForRateLimit: callOptions.waitForRateLimit ?? true };
  const seenPages = new Set<number>();
  let previousIds: string | null = null;
  let page = query.page ?? 1;
  for (;;) {
    const result = await list(credential, resource, { ...query, page }, options);
    const current = result.meta.currentPage;
    // Past the end the production service returns the last page again: never yield a page twice.
    if (current < page || seenPages.has(current)) return;
    const ids = result.items.map((item) => item.id).join(",");
    if (previousIds !== null && ids !== "" && ids === previousIds) return;
    seenPages.add(current);
    previousIds = ids;
    yield result;
    if (current >= result.meta.pageCount || result.items.length === 0) return;
    page = current + 1;
    await pace(credential.fingerprint, options);
  }
}

/** Before the next page: when the budget is down to the reserve, wait for the window to reset. */
async function pace(fingerprint: string, options: CallOptions): Promise<void> {
  const budget = currentRateLimit(fingerprint);
  if (!budget || budget.resetAt.getTime() <= Date.now()) return;
  const reserve = Math.ceil(budget.limit * PAGES_RESERVE_SHARE);
  if (budget.remaining - LISTING_COST >= reserve) return;
  const seconds = secondsUntil(budget.resetAt);
  if (!options.waitForRateLimit) throw new RateLimitedError(seconds, "pages(): budget down to the reserve for page renders", budget);
  emsLog("info", "ems.rate_limit_wait", { requestId: options.requestId, seconds, detail: "pages(): keeping the reserve for page renders" });
  await sleep(seconds * 1000, options.signal);
}
