"use server";

import { revalidatePath } from "next/cache";
import { authedAction, NO_INPUT } from "@/lib/actions/pipeline";
import { dismissChecklist } from "@/lib/onboarding/checklist";

/** Puts the signed-in person's first-run checklist away; it takes nothing, so it acts on their own only. */
export const dismissChecklistAction = authedAction({ name: "onboarding.dismiss-checklist", schema: NO_INPUT }, async (_input, { actor }) => {
  await dismissChecklist(actor);
  revalidatePath("/webhook-groups");
  return { message: "Checklist dismissed." };
});
