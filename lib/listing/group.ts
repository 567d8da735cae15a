import { WEBHOOK_GROUP_LISTING } from "./resources";
import { parseListingSearchParams, type ListingState } from "./search-params";

/** The listing query behind a group's page: that one id, every field, with its webhooks. */
export function groupListingState(id: number): ListingState {
  return {
    ...parseListingSearchParams("webhook-groups", {}),
    fields: [...WEBHOOK_GROUP_LISTING.fields],
    expand: ["webhooks"],
    ids: [id],
  };
}
