/**
 * A listing's canonical address. A submitted options form (the GET form that works without
 * JavaScript) sends every field (`fields=id&fields=name&per-page=20&ids=9%0A3`); the page is
 * answered at its short, stable address instead, so that what is shared and saved is the same
 * link whichever way it was made. Pure: proxy.ts answers a document request with a plain redirect
 * before rendering starts, and resolveListing (lib/listing-page/resolve.ts) does the same for a client
 * navigation.
 */
import { EVENT_LISTING, WEBHOOK_LISTING, WEBHOOK_GROUP_LISTING, type ListingResource } from "./resources";
import { pageSearchParams } from "@/lib/page-search-params";
import { toSearchParams } from "./href";
import { hasListingOptions, parseListingSearchParams, type ListingState, type SearchParamsInput } from "./search-params";

/** The listing page at this path, if it is one. */
export function listingAt(pathname: string): ListingResource | null {
  if (pathname === WEBHOOK_GROUP_LISTING.path) return WEBHOOK_GROUP_LISTING.resource;
  if (pathname === EVENT_LISTING.path) return EVENT_LISTING.resource;
  if (pathname === WEBHOOK_LISTING.path) return WEBHOOK_LISTING.resource;
  return null;
}

/**
 * The canonical query string when the given one is not it (`view=none` for "every option at its
 * default"), else null. Null too when something in the address was ignored: the page shows a
 * notice about it, which a redirect would lose. An address with no listing options (a bare page or
 * `?view=ID`) is the saved views' to resolve. `parsed`: the caller's parse of the same address.
 */
export function canonicalListingQuery(resource: ListingResource, searchParams: SearchParamsInput, parsed?: ListingState): string | null {
  if (!hasListingOptions(searchParams)) return null;
  const state = parsed ?? parseListingSearchParams(resource, searchParams);
  if (state.notices.length > 0 || state.idsErrors.length > 0) return null;
  const canonical = toSearchParams(state).toString();
  return canonical === searchStringOf(searchParams) ? null : canonical || "view=none";
}

function searchStringOf(input: SearchParamsInput): string {
  return pageSearchParams(input).toString();
}
