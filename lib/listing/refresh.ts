import "server-only";
import type { Actor } from "@/lib/access/actor";
import { loadGroupPage } from "./group";
import { hrefOf } from "./href";
import { refreshListing } from "./load";
import type { ListingResource } from "./resources";
import { parseListingSearchParams } from "./search-params";

/** What the refresh button names: a listing and its options, or one webhook group's page. */
export interface RefreshTarget {
  resource: ListingResource;
  /** The listing's search string, read again by the listing's own schema (nothing else of it is trusted). */
  search: string;
  groupId?: number;
}

/**
 * The refresh button: asks the EMS API again, with the actor's own credential, for the rows on
 * screen, bypassing the shared answer (one call however many members press it at once: a listing's
 * 10 credits, or a group page's 1). Answers the address of the page that shows the new answer.
 */
export async function refreshShownRows(actor: Actor, target: RefreshTarget): Promise<string> {
  if (target.resource === "webhook-groups" && target.groupId !== undefined) {
    await loadGroupPage(actor, target.groupId, { refresh: true });
    return `/webhook-groups/${target.groupId}`;
  }
  const state = parseListingSearchParams(target.resource, new URLSearchParams(target.search));
  await refreshListing(actor, state);
  return hrefOf(state);
}
