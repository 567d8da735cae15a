"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { setCheckPolicy } from "@/lib/health/policies";
import { recountTeamHealth } from "@/lib/health/report";
import { setCheckPolicySchema } from "./set-check-policy.validation";

const SAVED = {
  off: "Check turned off for the team.",
  tell: "The team is told of this check's new findings.",
  draft: "The portal drafts this check's fix after each sync.",
} as const;

/** Owners and admins (checked by the data function): what the team wants done with one check's findings. */
export const setCheckPolicyAction = authedAction({ name: "health.set_policy", schema: setCheckPolicySchema }, async (input, { actor, ip }) => {
  await setCheckPolicy(actor, input, { ip });
  // "Off" hides the check's findings like a mute: the navigation's counts move with it.
  await recountTeamHealth(actor);
  revalidatePath("/health");
  revalidatePath("/settings/checks");
  return { message: SAVED[input.policy] };
});
