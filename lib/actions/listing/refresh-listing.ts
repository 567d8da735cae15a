"use server";

import { redirect } from "next/navigation";
import { authedAction } from "@/lib/actions/pipeline";
import { loadGroupPage } from "@/lib/listing/group";
import { refreshListing } from "@/lib/listing/load";
import { hrefOf } from "@/lib/listing/href";
import { parseListingSearchParams } from "@/lib/listing/search-params";
import { refreshListingSchema } from "./refresh-listing.validation";

/**
 * Asks the EMS API again for the rows on screen, bypassing the shared answer (one call however many
 * members press it at once: a listing's 10 credits, or a group page's 1), then shows the page with
 * the new answer.
 */
export const refreshListingAction = authedAction({ name: "listing.refresh", schema: refreshListingSchema }, async (input, { actor }) => {
  if (input.resource === "webhook-groups" && input.groupId !== undefined) {
    await loadGroupPage(actor, input.groupId, { refresh: true });
    redirect(`/webhook-groups/${input.groupId}`);
  }
  const state = parseListingSearchParams(input.resource, new URLSearchParams(input.search));
  await refreshListing(actor, state);
  redirect(hrefOf(state));
});
