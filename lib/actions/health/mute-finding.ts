"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { WHOLE_RULE, muteFinding } from "@/lib/health/mutes";
import { recountTeamHealth } from "@/lib/health/report";
import { muteFindingSchema } from "./mute-finding.validation";

/** Owners and admins (checked by the data function): hides one finding, or a whole check, with a reason. */
export const muteFindingAction = authedAction({ name: "health.mute", schema: muteFindingSchema }, async (input, { actor, ip }) => {
  await muteFinding(actor, input, { ip });
  await recountTeamHealth(actor);
  revalidatePath("/health");
  return { message: input.findingKey === WHOLE_RULE ? "Check muted." : "Finding muted." };
});
