import "server-only";
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { budgetWaitMs, recordSpend, type BudgetSpender } from "./budget";
import { EVENTS_PATH, LISTING_COST, SINGLE_CALL_COST, WEBHOOKS_PATH, webhookGroupsPath } from "./config";
import { markCredentialFailing, noteCredentialWorking } from "./credential-state";
import { normalizeBaseUrl, type EmsCredential } from "./credentials";
import { CredentialsRejectedError, EmsBadRequestError, EmsError, InvalidQueryError, InvalidResponseError, RateLimitedError, UpstreamUnavailableError } from "./errors";
import { emsHttp, sleep, type EmsHttpResponse } from "./http";
import { emsLog, shortId } from "./log";
import type { EmsApiResource } from "./contract";
import { buildQueryString, type EventQuery, type QueryFor, type RecordQueryFor, type WebhookGroupQuery, type WebhookQuery } from "./query";
import { currentRateLimit, parseRateLimit, recordRateLimit, retryAfterSeconds, type RateLimit } from "./rate-limit";
import {
  apiErrorMessage,
  emsEventSchema,
  parseListBody,
  parseRecordBody,
  ResponseShapeError,
  webhookGroupSchema,
  webhookSchema,
  type EmsEvent,
  type ListMeta,
  type Webhook,
  type WebhookGroup,
} from "./responses";
import { ems, type CachedToken } from "./state";
import { countRateLimitWait } from "./telemetry";
import { getToken, invalidateToken } from "./token";
import { classifyUnreachable, hostOf } from "./unreachable";

export type CallOptions = {
  signal?: AbortSignal;
  /** Sleep through a rate limit instead of throwing RateLimitedError (long jobs; `pages()` defaults to true). */
  waitForRateLimit?: boolean;
  requestId?: string;
  /** Per-attempt timeout; default EMS_TIMEOUT_MS. */
  timeoutMs?: number;
  /**
   * Who spends the credits (lib/ems/budget.ts): the kind of work and the team, recorded per call.
   * Default: a page view (`list`), an export (`pages`). Background kinds keep out of the reserve
   * for page views, waiting for the window to reset rather than failing.
   */
  budget?: BudgetSpender;
};

export type ListResult<T> = { items: T[]; meta: ListMeta; rateLimit: RateLimit | null };

export type ItemFor<R extends EmsApiResource> = R extends "events" ? EmsEvent : R extends "webhooks" ? Webhook : WebhookGroup;

/** A single-record read: the record, or null when the API answered 404 (no such record in this account). */
export type RecordResult<T> = { item: T | null; rateLimit: RateLimit | null };

export interface EmsClient {
  readonly fingerprint: string;
  listWebhookGroups(query?: WebhookGroupQuery, options?: CallOptions): Promise<ListResult<WebhookGroup>>;
  listEvents(query?: EventQuery, options?: CallOptions): Promise<ListResult<EmsEvent>>;
  /** Every webhook of the account, with the listing language (docs/ems-api.md §4.1a). */
  listWebhooks(query?: WebhookQuery, options?: CallOptions): Promise<ListResult<Webhook>>;
  list<R extends EmsApiResource>(resource: R, query?: QueryFor<R>, options?: CallOptions): Promise<ListResult<ItemFor<R>>>;
  /**
   * One record by id, `GET /api/v1/<resource>/{id}` (docs/ems-api.md §4.6): 1 credit instead of a
   * listing's 10. `item` is null when the API answers 404. Throws InvalidQueryError for an id that
   * is not a positive integer, or a bad `fields`/`expand`.
   */
  getOne<R extends EmsApiResource>(resource: R, id: number, query?: RecordQueryFor<R>, options?: CallOptions): Promise<RecordResult<ItemFor<R>>>;
  /**
   * Every page of a query from `query.page` (default 1) to `_meta.pageCount`. Stops when the
   * service hands back a page it already returned (production answers past the end with the last
   * page again), waits out rate limits, and as background work (an export unless `budget` says
   * otherwise) keeps out of the reserve for page views (lib/ems/budget.ts).
   */
  pages<R extends EmsApiResource>(resource: R, query?: QueryFor<R>, options?: CallOptions): AsyncIterable<ListResult<ItemFor<R>>>;
  /** Gets a token (the cached one when fresh) and lists one webhook group. */
  testConnection(options?: CallOptions): Promise<{ expiresAt: Date; webhookGroupCount: number }>;
}

/** At most this many waits for a rate limit within one call (each as long as the API asks). */
const MAX_RATE_LIMIT_WAITS = 5;

export function getEmsClient(credential: EmsCredential): EmsClient {
  if (!credential.fingerprint) throw new Error("getEmsClient: the credential has no fingerprint (use credentialFingerprint()).");
  const normalized: EmsCredential = { ...credential, baseUrl: normalizeBaseUrl(credential.baseUrl) };
  const client: EmsClient = {
    fingerprint: normalized.fingerprint,
    listWebhookGroups: (query = {}, options = {}) => list(normalized, "webhook-groups", query, options),
    listEvents: (query = {}, options = {}) => list(normalized, "events", query, options),
    listWebhooks: (query = {}, options = {}) => list(normalized, "webhooks", query, options),
    getOne: (resource, id, query, options = {}) => getOne(normalized, resource, id, query ?? {}, options),
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

const ITEM_SCHEMAS = { "webhook-groups": webhookGroupSchema, events: emsEventSchema, webhooks: webhookSchema } as const;

/** Where a resource is listed; its records are at `<path>/{id}`. The webhook groups' path is configurable. */
function resourcePath(resource: EmsApiResource): string {
  return resource === "events" ? EVENTS_PATH : resource === "webhooks" ? WEBHOOKS_PATH : webhookGroupsPath();
}

async function waitOrThrow(seconds: number, options: CallOptions, waits: number, detail: string, rateLimit: RateLimit | null): Promise<void> {
  if (!options.waitForRateLimit || waits >= MAX_RATE_LIMIT_WAITS) throw new RateLimitedError(seconds, detail, rateLimit);
  emsLog("info", "ems.rate_limit_wait", { requestId: options.requestId, seconds, detail });
  countRateLimitWait("rate_limited", seconds);
  // A little jitter so that waiting jobs do not all return in the same millisecond.
  await sleep(seconds * 1000 + Math.random() * 250, options.signal);
}

function secondsUntil(date: Date): number {
  return Math.max(1, Math.ceil((date.getTime() - Date.now()) / 1000));
}

async function list<R extends EmsApiResource>(credential: EmsCredential, resource: R, query: QueryFor<R>, callOptions: CallOptions): Promise<ListResult<ItemFor<R>>> {
  const queryString = buildQueryString(resource, query);
  const path = resourcePath(resource);
  const url = `${credential.baseUrl}${path}${queryString ? `?${queryString}` : ""}`;
  return authorizedGet(credential, { url, path, cost: LISTING_COST }, callOptions, ({ bodyText, headers }, rateLimit) => {
    const parsed = parseListBody(parseJson(bodyText, path), ITEM_SCHEMAS[resource] as unknown as z.ZodType<ItemFor<R>>, headers, query);
    return { items: parsed.items, meta: parsed.meta, rateLimit };
  });
}

async function* pages<R extends EmsApiResource>(
  credential: EmsCredential,
  resource: R,
  query: QueryFor<R>,
  callOptions: CallOptions,
): AsyncGenerator<ListResult<ItemFor<R>>> {
  const options: CallOptions = {
    ...callOptions,
    waitForRateLimit: callOptions.waitForRateLimit ?? true,
    budget: { kind: "export", ...callOptions.budget },
  };
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
  }
}

/**
 * Background work whose next call would dip into the page views' reserve waits for the window to
 * reset (by the last answer's X-Rate-Limit-Reset), however many times it takes: its caller's
 * signal (an export's time limit) bounds the wait. Without `waitForRateLimit` it says so instead.
 */
async function paceBackground(ms: number, options: CallOptions, spender: BudgetSpender): Promise<void> {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (!options.waitForRateLimit) throw new RateLimitedError(seconds, `${spender.kind}: the rest of the window is kept for page views`, null);
  emsLog("info", "ems.rate_limit_wait", { requestId: options.requestId, seconds, detail: `${spender.kind}: keeping the reserve for page views` });
  countRateLimitWait("reserve", seconds);
  await sleep(ms + Math.random() * 250, options.signal);
}

async function getOne<R extends EmsApiResource>(
  credential: EmsCredential,
  resource: R,
  id: number,
  query: RecordQueryFor<R>,
  callOptions: CallOptions,
): Promise<RecordResult<ItemFor<R>>> {
  if (!Number.isSafeInteger(id) || id < 1) throw new InvalidQueryError([`a record id is a positive whole number, not ${String(id)}`]);
  const queryString = buildQueryString(resource, { fields: query.fields, expand: query.expand } as QueryFor<R>);
  const path = `${resourcePath(resource)}/${id}`;
  const url = `${credential.baseUrl}${path}${queryString ? `?${queryString}` : ""}`;
  return authorizedGet(credential, { url, path, cost: SINGLE_CALL_COST, allowNotFound: true }, callOptions, ({ status, bodyText }, rateLimit) => ({
    item: status === 404 ? null : parseRecordBody(parseJson(bodyText, path), ITEM_SCHEMAS[resource] as unknown as z.ZodType<ItemFor<R>>),
    rateLimit,
  }));
}

function parseJson(bodyText: string, path: string): unknown {
  try {
    return JSON.parse(bodyText);
  } catch {
    throw new InvalidResponseError(`${path} answered 200 with a body that is not JSON`, 200);
  }
}

/**
 * One authorized GET, the single loop behind every read of the client: background work (an export,
 * a sync) first keeps out of the page views' reserve (lib/ems/budget.ts); a budget known to be spent
 * waits or throws RateLimitedError without a round trip; a token comes from the cache, with one
 * renewal and retry on 401; a 429 waits (`waitForRateLimit`) or throws; 5xx and other refusals
 * become typed errors. Every answer but a 429 is charged to `budget`'s kind and team. `read` turns
 * the 200 (or 404 with `allowNotFound`) into the result; a body that does not fit the contract is
 * an InvalidResponseError. The credential is then known to work.
 */
async function authorizedGet<T>(
  credential: EmsCredential,
  target: { url: string; path: string; cost: number; allowNotFound?: boolean },
  callOptions: CallOptions,
  read: (response: EmsHttpResponse, rateLimit: RateLimit | null) => T,
): Promise<T> {
  const options: CallOptions = { ...callOptions, requestId: callOptions.requestId ?? randomUUID() };
  const requestId = options.requestId!;
  const { fingerprint } = credential;
  const spender: BudgetSpender = { kind: "page", ...options.budget };
  const { url, path } = target;
  const started = performance.now();
  let refused: CachedToken | undefined;
  let rateLimitWaits = 0;
  try {
    for (;;) {
      // Background work keeps out of the page views' reserve: it waits for the window to reset.
      const paceMs = budgetWaitMs(spender.kind, currentRateLimit(fingerprint), target.cost);
      if (paceMs > 0) {
        await paceBackground(paceMs, options, spender);
        continue;
      }
      // Known to be over budget until the window resets: do not spend a round trip on a sure 429.
      const budget = currentRateLimit(fingerprint);
      if (budget && budget.remaining < target.cost && budget.resetAt.getTime() > Date.now()) {
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
      // A 429 costs nothing (docs/ems-api.md §5); every other answer was charged.
      if (response.status !== 429) recordSpend(fingerprint, spender, target.cost, response.receivedAt);

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
        await waitOrThrow(
          retryAfterSeconds(response.headers, response.receivedAt),
          options,
          rateLimitWaits++,
          "API answered 429",
          rateLimit ?? currentRateLimit(fingerprint),
        );
        continue;
      }
      if (response.status >= 500) {
        throw new UpstreamUnavailableError(`${path} answered ${response.status} (after retries)`, {
          status: response.status,
          unreachable: classifyUnreachable({ host: hostOf(credential.baseUrl), status: response.status }),
        });
      }
      if (response.status !== 200 && !(response.status === 404 && target.allowNotFound)) {
        throw new EmsBadRequestError(apiErrorMessage(response.bodyText) ?? `the API answered ${response.status}`, response.status);
      }
      let result: T;
      try {
        result = read(response, rateLimit);
      } catch (error) {
        if (error instanceof ResponseShapeError) throw new InvalidResponseError(`${path}: ${error.message}`, 200);
        throw error;
      }
      await noteCredentialWorking(fingerprint);
      return result;
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
