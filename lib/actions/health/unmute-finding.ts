"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { unmuteFinding } from "@/lib/health/mutes";
import { recountTeamHealth } from "@/lib/health/report";
import { unmuteFindingSchema } from "./unmute-finding.validation";

/** Owners and admins: a muted finding (or check) is shown again. */
export const unmuteFindingAction = authedAction({ name: "health.unmute", schema: unmuteFindingSchema }, async ({ muteId }, { actor, ip }) => {
  await unmuteFinding(actor, muteId, { ip });
  await recountTeamHealth(actor);
  revalidatePath("/health");
  return { message: "Shown again." };
});
