"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { acceptDrift } from "@/lib/plans/drift-findings";
import { driftFindingSchema } from "./drift-finding.validation";

/**
 * Owners and admins (checked by the data function, as Health's mutes are: accepting is the team's
 * decision about its setup): the record stays as it is in the EMS, and the finding is muted with who
 * accepted it and when. Nothing is sent to the EMS, so no recent password.
 */
export const acceptDriftAction = authedAction({ name: "plans.accept-drift", schema: driftFindingSchema }, async (input, { actor, ip }) => {
  await acceptDrift(actor, input.findingId, { ip });
  revalidatePath("/health");
  revalidatePath("/plans", "layout");
  return { message: "Drift accepted: the record stays as it is in the EMS." };
});
