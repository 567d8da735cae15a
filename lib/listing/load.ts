import "server-only";
import { randomUUID } from "node:crypto";
import type { Actor } from "@/lib/auth/session";
import { getEmsClientForActor } from "@/lib/credentials/store";
import {
  type EmsClient,
  getCredentialState,
  CredentialsRejectedError,
  EmsBadRequestError,
  InvalidResponseError,
  RateLimitedError,
  UpstreamUnavailableError,
} from "@/lib/ems";
import { formatSeconds } from "@/lib/duration";
import { listingEnv } from "@/lib/env";
import { isSafeError, userMessageOf } from "@/lib/errors";
import { log } from "@/lib/log";
import { toEmsQuery } from "./query";
import type { ListingState } from "./search-params";

export interface RateBudget {
  limit: number;
  remaining: number;
  resetAt: Date;
  /** Seconds until the window resets, as of when the answer came. */
  resetInSeconds: number;
}

export function budgetOf(rateLimit: { limit: number; remaining: number; resetAt: Date } | null | undefined): RateBudget | null {
  if (!rateLimit) return null;
  const resetInSeconds = Math.max(0, Math.ceil((new Date(rateLimit.resetAt).getTime() - Date.now()) / 1000));
  return { limit: rateLimit.limit, remaining: rateLimit.remaining, resetAt: new Date(rateLimit.resetAt), resetInSeconds };
}

export interface ListingMeta {
  totalCount: number;
  pageCount: number;
  currentPage: number;
  perPage: number;
}

export type ListingFailure =
  | { kind: "no-credentials" }
  | { kind: "rejected"; message: string }
  | { kind: "rate-limited"; message: string; retryAfterSeconds: number; budget: RateBudget | null }
  | { kind: "unavailable"; message: string }
  | { kind: "bad-request"; message: string }
  | { kind: "invalid-response"; message: string }
  | { kind: "unknown"; message: string };

export type ListingOutcome<T> = { kind: "ok"; items: T[]; meta: ListingMeta; budget: RateBudget | null } | ListingFailure;

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
  if (error instanceof UpstreamUnavailableError) return { kind: "unavailable", message: error.userMessage };
  if (error instanceof EmsBadRequestError) return { kind: "bad-request", message: error.userMessage };
  if (error instanceof InvalidResponseError) return { kind: "invalid-response", message: error.userMessage };
  if (!isSafeError(error)) log.error({ event: "listing.unexpected_error", requestId, err: error }, "listing failed unexpectedly");
  return { kind: "unknown", message: userMessageOf(error) };
}

/**
 * One listing call for one page view, with the signed-in person's own credentials. Never throws
 * for the upstream's sake: every failure becomes a state the page renders. `emsClient` is the
 * credential load resolveListing already started (beside its saved-views query); without it the
 * credential is read here.
 *
 * The EMS calls of a render share one deadline, EMS_PAGE_BUDGET_MS (12 s): the client's own
 * timeout is per attempt, and with its retries and a token request a slow API could hold a page
 * for a minute. When the budget is spent the call is aborted and the page says the API is
 * unavailable, with a retry link.
 */
export async function loadListing(
  actor: Actor,
  state: ListingState,
  emsClient?: Promise<EmsClient | null>,
  options: { budgetMs?: number } = {},
): Promise<ListingOutcome<Record<string, unknown>>> {
  // One id for the EMS client's log lines of this page view and for a failure logged here.
  const requestId = randomUUID();
  let client;
  try {
    client = await (emsClient ?? getEmsClientForActor(actor));
  } catch (error) {
    return failureOf(error, requestId);
  }
  if (!client) return { kind: "no-credentials" };
  const budgetMs = options.budgetMs ?? listingEnv().EMS_PAGE_BUDGET_MS;
  const deadline = AbortSignal.timeout(budgetMs);
  try {
    const query = toEmsQuery(state);
    // Page renders never sleep through a rate limit: they say how long to wait instead.
    const result = await client.list(state.resource, query as never, { waitForRateLimit: false, requestId, signal: deadline });
    return {
      kind: "ok",
      items: result.items as unknown as Record<string, unknown>[],
      meta: result.meta,
      budget: budgetOf(result.rateLimit),
    };
  } catch (error) {
    if (deadline.aborted) {
      log.warn({ event: "listing.budget_spent", requestId, resource: state.resource, budgetMs }, "the EMS API did not answer within the page budget");
      return { kind: "unavailable", message: `The EMS API did not answer within ${formatSeconds(Math.round(budgetMs / 1000))}. It may be slow or down; try again in a moment.` };
    }
    const failure = failureOf(error, requestId);
    if (failure.kind === "rate-limited" && !failure.budget) {
      const known = budgetOf((await getCredentialState(client.fingerprint).catch(() => null))?.rateLimit);
      // The figures of the last answer; none known means the 429 itself: nothing left until the wait ends.
      failure.budget = known ?? { limit: 0, remaining: 0, resetAt: new Date(Date.now() + failure.retryAfterSeconds * 1000), resetInSeconds: failure.retryAfterSeconds };
    }
    return failure;
  }
}
