import "server-only";
import type { Actor } from "@/lib/access/actor";
import { answerCache, canonicalQuery, type EmsClient, type QueryFor } from "@/lib/ems";
import { loadShared, type Freshness, type ListingFailure, type LoadOptions, type RateBudget } from "@/lib/ems-access/shared-read";
import { idSetPage } from "./id-set-pages";
import { pageBlockOf, pageFromBlock } from "./page-block";
import { toEmsQuery } from "./query";
import type { ListingState } from "./search-params";

export interface ListingMeta {
  totalCount: number;
  pageCount: number;
  currentPage: number;
  perPage: number;
}

export type ListingOutcome<T> = { kind: "ok"; items: T[]; meta: ListingMeta; budget: RateBudget | null; freshness: Freshness } | ListingFailure;

/**
 * One listing call for one page view, with the signed-in person's own credentials. Never throws
 * for the upstream's sake: every failure becomes a state the page renders. `emsClient` is the
 * credential load resolveListing already started (beside its saved-views query); without it the
 * credential is read here.
 *
 * Identical listings of the team's credential within EMS_SHARED_ANSWER_SECONDS are answered once
 * (lib/ems/answer-cache.ts): the stored answer is looked up beside the credential's load, and only
 * a missing or old one costs an API call (`refresh` asks the API regardless). A 429 with an earlier
 * answer stored shows that answer, marked stale, not an error. A page is read as part of its block
 * of 200 rows (./page-block.ts), so the pages beside it share that answer.
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
  options: LoadOptions = {},
): Promise<ListingOutcome<Record<string, unknown>>> {
  const query = listingQuery(state);
  const read = (asked: typeof query) =>
    loadShared(actor, canonicalQuery(state.resource, asked).hash, state.resource, emsClient, options, (client, shared) =>
      answerCache.list(client, state.resource, asked, shared),
    );
  // The page's block of 200 rows (./page-block.ts): its neighbours are then answered by the same call.
  const block = pageBlockOf(query);
  let outcome = await read(block ?? query);
  if (outcome.kind !== "ok") return outcome;
  let page = block ? pageFromBlock(outcome.answer, query) : outcome.answer;
  if (!page) {
    outcome = await read(query);
    if (outcome.kind !== "ok") return outcome;
    page = outcome.answer;
  }
  return { kind: "ok", items: page.items as unknown as Record<string, unknown>[], meta: page.meta, budget: outcome.budget, freshness: outcome.freshness };
}

/** What the API is asked for a listing's page. */
function listingQuery(state: ListingState): QueryFor<ListingState["resource"]> {
  // The groups list always shows what is in each group (./table-rows.ts "Contents"): the webhooks
  // come with the same call (one credit either way), whether or not their lines are shown.
  return toEmsQuery(state, state.resource === "webhook-groups" ? { expand: ["webhooks"] } : {}) as QueryFor<ListingState["resource"]>;
}

/**
 * The stored answer a view of `state` reads first (its block's, ./page-block.ts): what a page can
 * look up ahead, in a statement it sends anyway (lib/listing-page/resolve.ts), and hand to
 * loadListing as `options.lookedUp`.
 */
export function firstAnswerHash(state: ListingState): string {
  const query = listingQuery(state);
  return canonicalQuery(state.resource, pageBlockOf(query) ?? query).hash;
}

/**
 * The refresh button: the rows of `state` asked of the API again, bypassing the shared answer (one
 * call for every member who presses it at once). The outcome is what the page shows next.
 */
export function refreshListing(actor: Actor, state: ListingState): Promise<ListingOutcome<Record<string, unknown>>> {
  return loadListing(actor, state, undefined, { refresh: true });
}

/**
 * One page of a known set of ids (./id-set-pages.ts: a Health check's records): that page's ids go
 * to the EMS with the list's other options (one call; none for an empty page), and the meta is the
 * set's. The set itself is the caller's (lib/listing-page/check-filter.ts).
 */
export async function loadListingOfIds(
  actor: Actor,
  state: ListingState,
  ids: readonly number[],
  emsClient?: Promise<EmsClient | null>,
  options: LoadOptions = {},
): Promise<ListingOutcome<Record<string, unknown>>> {
  const page = idSetPage(ids, state.page, state.perPage);
  const meta: ListingMeta = { totalCount: page.totalCount, pageCount: page.pageCount, currentPage: page.currentPage, perPage: page.perPage };
  if (page.ids.length === 0) return { kind: "ok", items: [], meta, budget: null, freshness: { ageSeconds: 0, stale: false, windowSeconds: 0 } };
  const outcome = await loadListing(actor, { ...state, check: null, ids: page.ids, page: 1, perPage: page.perPage }, emsClient, options);
  if (outcome.kind !== "ok") return outcome;
  return { ...outcome, meta };
}
