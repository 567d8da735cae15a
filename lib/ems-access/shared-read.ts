import "server-only";
import { randomUUID } from "node:crypto";
import type { Actor } from "@/lib/access/actor";
import {
  answerCache,
  canonicalRecord,
  emsConfig,
  type EmsApiResource,
  type ItemFor,
  type RateLimit,
  type RecordQueryFor,
  type SharedListOptions,
  type BudgetKind,
  type EmsClient,
  type PeekedAnswer,
  credentialStateIfReadable,
  isBudgetLow,
  CredentialsRejectedError,
  EmsBadRequestError,
  InvalidResponseError,
  RateLimitedError,
  UpstreamUnavailableError,
} from "@/lib/ems";
import type { Unreachable } from "@/lib/ems/unreachable";
import { formatSeconds } from "@/lib/duration";
import { listingEnv } from "@/lib/env";
import { isSafeError, userMessageOf } from "@/lib/errors";
import { BusyError } from "@/lib/admission";
import { log } from "@/lib/log";
import { getEmsClientForActor } from "./credential";

/**
 * Reading the EMS as the signed-in person: the stored (shared) answer looked up beside the
 * person's credential, one deadline for a render's EMS calls, and every failure turned into a state
 * a page, a route or a job can show. The listing, a group's page, the setup of coverage and health
 * checks and the command palette all read through here.
 */

export interface RateBudget {
  limit: number;
  remaining: number;
  resetAt: Date;
  /** Seconds until the window resets, as of when the answer came. */
  resetInSeconds: number;
  /** Under EMS_LOW_BUDGET_PERCENT of the window left: every member using the credential sees a notice. */
  low: boolean;
}

export function budgetOf(rateLimit: { limit: number; remaining: number; resetAt: Date } | null | undefined): RateBudget | null {
  if (!rateLimit) return null;
  const resetAt = new Date(rateLimit.resetAt);
  const resetInSeconds = Math.max(0, Math.ceil((resetAt.getTime() - Date.now()) / 1000));
  return { limit: rateLimit.limit, remaining: rateLimit.remaining, resetAt, resetInSeconds, low: isBudgetLow({ ...rateLimit, resetAt }) };
}

/** How old the rows on screen are (lib/ems/answer-cache.ts). */
export interface Freshness {
  /** Seconds since the EMS answered: 0 when this page view asked it. */
  ageSeconds: number;
  /** Shown because the API's rate limit is used up: older than the sharing window. */
  stale: boolean;
  /** Answers are shared for this many seconds (0: sharing is off, every view asks the API). */
  windowSeconds: number;
}

export type ListingFailure =
  | { kind: "no-credentials" }
  | { kind: "rejected"; message: string }
  | { kind: "rate-limited"; message: string; retryAfterSeconds: number; budget: RateBudget | null }
  /** Heavy work refused while others of its kind run here (lib/admission.ts). */
  | { kind: "busy"; message: string; retryAfterSeconds: number }
  | { kind: "unavailable"; message: string; unreachable?: Unreachable | null }
  | { kind: "bad-request"; message: string }
  | { kind: "invalid-response"; message: string }
  | { kind: "unknown"; message: string };

/** The HTTP status of each way a read of the EMS can fail, for the routes that answer files (exports, findings). */
export const FAILURE_STATUS: Readonly<Record<ListingFailure["kind"], number>> = {
  "no-credentials": 409,
  rejected: 403,
  "rate-limited": 429,
  busy: 429,
  unavailable: 503,
  "bad-request": 400,
  "invalid-response": 502,
  unknown: 500,
};

/**
 * Turns what the EMS client threw into a state the page can show; only user-facing words escape.
 * Anything unexpected is logged with the request id, when the caller has one.
 */
export function failureOf(error: unknown, requestId?: string): ListingFailure {
  if (error instanceof CredentialsRejectedError) return { kind: "rejected", message: error.userMessage };
  if (error instanceof RateLimitedError) {
    const retryAfterSeconds = Math.max(0, Math.ceil(error.retryAfterSeconds));
    return { kind: "rate-limited", message: error.userMessage, retryAfterSeconds, budget: null };
  }
  if (error instanceof BusyError) return { kind: "busy", message: error.message, retryAfterSeconds: error.retryAfterSeconds };
  if (error instanceof UpstreamUnavailableError) return { kind: "unavailable", message: error.userMessage, unreachable: error.unreachable };
  if (error instanceof EmsBadRequestError) return { kind: "bad-request", message: error.userMessage };
  if (error instanceof InvalidResponseError) return { kind: "invalid-response", message: error.userMessage };
  if (!isSafeError(error)) log.error({ event: "listing.unexpected_error", requestId, err: error }, "listing failed unexpectedly");
  return { kind: "unknown", message: userMessageOf(error) };
}

export type RecordOutcome<T> = { kind: "ok"; item: T | null; budget: RateBudget | null; freshness: Freshness } | ListingFailure;

/**
 * One record for one page view (a group's page): a single-record read, 1 credit instead of a
 * listing's 10, shared (for `recordAnswerMs`, lib/ems/config.ts) and bounded like loadListing.
 * `item` is null when the API answered 404 (no such record in this person's account).
 */
export async function loadRecord<R extends EmsApiResource>(
  actor: Actor,
  resource: R,
  id: number,
  query: RecordQueryFor<R>,
  options: LoadOptions = {},
): Promise<RecordOutcome<ItemFor<R>>> {
  const windowMs = options.windowMs ?? emsConfig().recordAnswerMs;
  const outcome = await loadShared(actor, canonicalRecord(resource, id, query).hash, resource, undefined, { ...options, windowMs }, (client, shared) =>
    answerCache.record(client, resource, id, query, shared),
  );
  if (outcome.kind !== "ok") return outcome;
  return { kind: "ok", item: outcome.answer.item, budget: outcome.budget, freshness: outcome.freshness };
}

export interface LoadOptions {
  /** Overrides EMS_PAGE_BUDGET_MS. */
  budgetMs?: number;
  /** Ask the API even when a fresh answer is shared (the refresh button). */
  refresh?: boolean;
  /** Who spends the credits (lib/ems/budget.ts); default a page view. */
  kind?: BudgetKind;
  /** How long answers are shared (ms); default EMS_SHARED_ANSWER_SECONDS. */
  windowMs?: number;
  /**
   * The stored answer already looked up by the caller (a listing page sends the lookup with its
   * saved views: one round trip fewer); used when its hash is the one read, else looked up here.
   */
  lookedUp?: { queryHash: string; answer: PeekedAnswer | null };
}

export type SharedOutcome<A> = { kind: "ok"; answer: A; budget: RateBudget | null; freshness: Freshness } | ListingFailure;

/**
 * What loadListing, loadRecord and the setup of coverage and health checks (lib/setup/load.ts)
 * share: the stored answer looked up beside the credential's load (when `queryHash` names one),
 * one deadline for the render's EMS calls, and every failure turned into a state the page shows.
 */
export async function loadShared<A extends { rateLimit: RateLimit | null; ageSeconds: number; stale: boolean }>(
  actor: Actor,
  queryHash: string | null,
  resource: EmsApiResource,
  emsClient: Promise<EmsClient | null> | undefined,
  options: LoadOptions,
  ask: (client: EmsClient, shared: SharedListOptions) => Promise<A>,
): Promise<SharedOutcome<A>> {
  // One id for the EMS client's log lines of this page view and for a failure logged here.
  const requestId = randomUUID();
  const windowMs = options.windowMs ?? emsConfig().sharedAnswerMs;
  // The stored answer, looked up beside the credential's load (by user id): no extra wait.
  const peek =
    windowMs > 0 && !options.refresh && queryHash
      ? options.lookedUp?.queryHash === queryHash
        ? Promise.resolve(options.lookedUp.answer)
        : answerCache.peekForUser(actor.userId, actor.teamId, queryHash).catch((error: unknown) => {
            // Only a shortcut: without it the answer cache looks the row up itself (or asks the EMS).
            log.warn({ event: "listing.peek_failed", requestId, resource, err: error }, "the shared answer could not be looked up beside the credential");
            return null;
          })
      : Promise.resolve(null);
  let client;
  try {
    [client] = await Promise.all([emsClient ?? getEmsClientForActor(actor), peek]);
  } catch (error) {
    return failureOf(error, requestId);
  }
  if (!client) return { kind: "no-credentials" };
  const budgetMs = options.budgetMs ?? listingEnv().EMS_PAGE_BUDGET_MS;
  const deadline = AbortSignal.timeout(budgetMs);
  try {
    // Page renders never sleep through a rate limit: they say how long to wait instead.
    const answer = await ask(client, {
      teamId: actor.teamId,
      waitForRateLimit: false,
      requestId,
      signal: deadline,
      refresh: options.refresh,
      peeked: await peek,
      kind: options.kind,
      windowMs: options.windowMs,
    });
    return {
      kind: "ok",
      answer,
      budget: budgetOf(answer.rateLimit),
      freshness: { ageSeconds: answer.ageSeconds, stale: answer.stale, windowSeconds: Math.round(windowMs / 1000) },
    };
  } catch (error) {
    if (deadline.aborted) {
      log.warn({ event: "listing.budget_spent", requestId, resource, budgetMs }, "the EMS API did not answer within the page budget");
      return {
        kind: "unavailable",
        message: `The EMS API did not answer within ${formatSeconds(Math.round(budgetMs / 1000))}. It may be slow or down; try again in a moment.`,
      };
    }
    const failure = failureOf(error, requestId);
    if (failure.kind === "rate-limited" && !failure.budget) {
      const known = budgetOf((await credentialStateIfReadable(client.fingerprint, "listing.rate_limited"))?.rateLimit);
      // The figures of the last answer; none known means the 429 itself: nothing left until the wait ends.
      failure.budget = known ?? {
        limit: 0,
        remaining: 0,
        resetAt: new Date(Date.now() + failure.retryAfterSeconds * 1000),
        resetInSeconds: failure.retryAfterSeconds,
        low: true,
      };
    }
    return failure;
  }
}
