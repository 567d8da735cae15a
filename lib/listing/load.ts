import "server-only";
import type { Actor } from "@/lib/auth/session";
import { getEmsClientForActor } from "@/lib/credentials/store";
import {
  getCredentialState,
  CredentialsRejectedError,
  EmsBadRequestError,
  InvalidResponseError,
  RateLimitedError,
  UpstreamUnavailableError,
} from "@/lib/ems";
import { isSafeError, userMessageOf } from "@/lib/errors";
import { toEmsQuery } from "./query";
import type { ListingState } from "./search-params";

export interface RateBudget {
  limit: number;
  remaining: number;
  resetAt: Date;
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

/** Turns what the EMS client threw into a state the page can show; only user-facing words escape. */
export function failureOf(error: unknown): ListingFailure {
  if (error instanceof CredentialsRejectedError) return { kind: "rejected", message: error.userMessage };
  if (error instanceof RateLimitedError) {
    const extra = error as unknown as { rateLimit?: RateBudget | null };
    return {
      kind: "rate-limited",
      message: error.userMessage,
      retryAfterSeconds: Math.max(0, Math.ceil(error.retryAfterSeconds)),
      budget: extra.rateLimit ?? null,
    };
  }
  if (error instanceof UpstreamUnavailableError) return { kind: "unavailable", message: error.userMessage };
  if (error instanceof EmsBadRequestError) return { kind: "bad-request", message: error.userMessage };
  if (error instanceof InvalidResponseError) return { kind: "invalid-response", message: error.userMessage };
  if (!isSafeError(error)) console.error("[listing] unexpected error", error);
  return { kind: "unknown", message: userMessageOf(error) };
}

/**
 * One listing call for one page view, with the signed-in person's own credentials. Never throws
 * for the upstream's sake: every failure becomes a state the page renders.
 */
export async function loadListing(actor: Actor, state: ListingState): Promise<ListingOutcome<Record<string, unknown>>> {
  let client;
  try {
    client = await getEmsClientForActor(actor);
  } catch (error) {
    return failureOf(error);
  }
  if (!client) return { kind: "no-credentials" };
  try {
    const query = toEmsQuery(state);
    // Page renders never sleep through a rate limit: they say how long to wait instead.
    const result = await client.list(state.resource, query as never, { waitForRateLimit: false });
    return {
      kind: "ok",
      items: result.items as unknown as Record<string, unknown>[],
      meta: result.meta,
      budget: result.rateLimit,
    };
  } catch (error) {
    const failure = failureOf(error);
    if (failure.kind === "rate-limited" && !failure.budget) {
      failure.budget = (await getCredentialState(client.fingerprint).catch(() => null))?.rateLimit ?? null;
    }
    return failure;
  }
}
