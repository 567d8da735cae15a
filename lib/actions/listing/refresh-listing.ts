"use server";

import { redirect } from "next/navigation";
import { authedAction } from "@/lib/actions/pipeline";
import { refreshShownRows } from "@/lib/listing/refresh";
import { refreshListingSchema } from "./refresh-listing.validation";

/** The refresh button: the rows on screen asked of the EMS API again (lib/listing/refresh.ts), then the page with them. */
export const refreshListingAction = authedAction({ name: "listing.refresh", schema: refreshListingSchema }, async (input, { actor }) => {
  redirect(await refreshShownRows(actor, input));
});
