import "server-only";
import { redirect } from "next/navigation";
import type { Actor } from "@/lib/access/actor";
import { getEmsClientForActor } from "@/lib/ems-access/credential";
import { awaitedLater } from "@/lib/promises";
import { peekForUserQuery, type EmsClient, type PeekColumns, type PeekedAnswer } from "@/lib/ems";
import { firstAnswerHash } from "@/lib/listing/load";
import { listViewTabs } from "@/lib/views/tabs";
import { viewHref, type ViewSummary } from "@/lib/views/views";
import { canonicalListingQuery } from "@/lib/listing/canonical";
import { viewQueryOf } from "@/lib/listing/href";
import type { ListingResource } from "@/lib/listing/resources";
import { listingConfig } from "@/lib/listing/resources";
import { hasListingOptions, parseListingSearchParams, type ListingState, type SearchParamsInput } from "@/lib/listing/search-params";

export interface ResolvedListing {
  state: ListingState;
  activeView: ViewSummary | null;
  canManageActiveView: boolean;
  /** The options on screen differ from the active view's. */
  modified: boolean;
  /** The tabs (lib/views/tabs.ts): favourites and most used, with the default and the requested view. */
  views: ViewSummary[];
  /** The person's views on this page past the tabs, listed by "More" when it opens. */
  moreViews: number;
  /**
   * The person's EMS client (null: no credentials saved), loaded beside the views: hand it to
   * loadListing (loadListingPage, ./page-data.ts, does; it never reaches a component). A rejection
   * (unreadable credentials) is the listing's to show, not this function's.
   */
  emsClient: Promise<EmsClient | null>;
  /** The stored answer the rows will read first, looked up in the saved views' statement: for loadListing. */
  lookedUp: { queryHash: string; answer: PeekedAnswer | null };
}

/**
 * The options a listing page shows, with saved views applied:
 * - a bare address opens the person's default view for the page, if any (`view=none` opts out);
 * - `?view=ID` alone opens that view's options, when the person may see it;
 * - a view link carries its options too, so someone who may not see the view (another team, a
 *   personal view) still gets its filters, with a notice, and never learns anything else about it.
 */
export async function resolveListing(actor: Actor, resource: ListingResource, searchParams: SearchParamsInput): Promise<ResolvedListing> {
  const state = parseListingSearchParams(resource, searchParams);
  const hasOptions = hasListingOptions(searchParams);

  // A document request never gets here with a long address (proxy.ts redirects it first); a client
  // navigation to one is sent on to the canonical address the same way.
  const canonical = canonicalListingQuery(resource, searchParams, state);
  if (canonical !== null) redirect(`${listingConfig(resource).path}?${canonical}`);
  // Two queries at once: the credential the table will need, and this person's tabs on this page
  // (a requested or default view is among them if it is theirs to see at all). The same statement
  // counts the opening of the requested (or default) view for "most used".
  const emsClient = awaitedLater(getEmsClientForActor(actor)); // its failure is shown by loadListing
  // The stored answer the rows will read is looked up in the same statement as the tabs (issue 38:
  // a listing view costs two round trips, the session's and this one). A saved view's options never
  // change it: its rows are asked by their options, not by the view.
  const queryHash = firstAnswerHash(state);
  const peek = peekForUserQuery(actor.userId, actor.teamId, queryHash);
  const tabs = await listViewTabs(
    actor,
    resource,
    { requestedId: state.view && state.view !== "none" ? state.view : null, opensDefault: !hasOptions && state.view === null },
    { sql: peek.sql, read: (rows) => peek.read(rows as Partial<PeekColumns>[]) },
  );
  const lookedUp = { queryHash, answer: tabs.rider };
  const views = tabs.views;
  const moreViews = tabs.more;
  const requested = state.view && state.view !== "none" ? (views.find((v) => v.id === state.view) ?? null) : null;

  if (!hasOptions) {
    const target = state.view === "none" ? null : state.view ? requested : (views.find((v) => v.isDefault) ?? null);
    if (target && target.page === resource && target.query !== "") redirect(viewHref(target));
    if (target && target.page === resource) {
      return { state: { ...state, view: target.id }, activeView: target, canManageActiveView: target.canManage, modified: false, views, moreViews, emsClient, lookedUp };
    }
  }

  if (state.view === "none")
    return { state: { ...state, view: null }, activeView: null, canManageActiveView: false, modified: false, views, moreViews, emsClient, lookedUp };

  if (state.view && (!requested || requested.page !== resource)) {
    return {
      state: {
        ...state,
        view: null,
        notices: [
          ...state.notices,
          hasOptions
            ? "The saved view in this link is not available to you, so its name is not shown; its filters and options are applied."
            : "That saved view does not exist or is not shared with you.",
        ],
      },
      activeView: null,
      canManageActiveView: false,
      modified: false,
      views,
      moreViews,
      emsClient,
      lookedUp,
    };
  }

  if (requested) {
    return {
      state,
      activeView: requested,
      canManageActiveView: requested.canManage,
      modified: viewQueryOf(state) !== requested.query,
      views,
      moreViews,
      emsClient,
      lookedUp,
    };
  }
  return { state, activeView: null, canManageActiveView: false, modified: false, views, moreViews, emsClient, lookedUp };
}
