"use server";

import { redirect } from "next/navigation";
import { authedAction } from "@/lib/actions/pipeline";
import { groupListingState } from "@/lib/listing/group";
import { refreshListing } from "@/lib/listing/load";
import { hrefOf, parseListingSearchParams } from "@/lib/listing/search-params";
import { refreshListingSchema } from "./refresh-listing.validation";

/**
 * Asks the EMS API again for the rows on screen, bypassing the shared answer (one listing call, 10
 * credits, however many members press it at once), then shows the page with the new answer.
 */
export const refreshListingAction = authedAction({ name: "listing.refresh", schema: refreshListingSchema }, async (input, { actor }) => {
  const state =
    input.resource === "webhook-groups" && input.groupId !== undefined
      ? groupListingState(input.groupId)
      : parseListingSearchParams(input.resource, new URLSearchParams(input.search));
  await refreshListing(actor, state);
  redirect(input.groupId !== undefined ? `/webhook-groups/${input.groupId}` : hrefOf(state));
});
