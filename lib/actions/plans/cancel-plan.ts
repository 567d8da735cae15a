"use server";

import { authedAction } from "@/lib/actions/pipeline";
import { cancelPlan } from "@/lib/plans/review";
import { recentAuthFor, refreshPlan } from "./plan-moves";
import { cancelPlanSchema } from "./cancel-plan.validation";

/** lib/plans/review.ts checks who may, inside (lib/plans/lifecycle.ts "cancel"). */
export const cancelPlanAction = authedAction({ name: "plans.cancel", schema: cancelPlanSchema, recentAuth: recentAuthFor("cancel") }, async (input, { actor, ip }) => {
  const outcome = await cancelPlan(actor, input.planId, { ip });
  refreshPlan(input.planId);
  return { message: outcome === "cancelled" ? "Cancelled." : "Stopping after the step under way." };
});
