"use server";

import { authedAction } from "@/lib/actions/pipeline";
import { submitPlan } from "@/lib/plans/review";
import { recentAuthFor, refreshPlan } from "./plan-moves";
import { submitPlanSchema } from "./submit-plan.validation";

/** lib/plans/review.ts checks who may, inside (lib/plans/lifecycle.ts "submit"). */
export const submitPlanAction = authedAction({ name: "plans.submit", schema: submitPlanSchema, recentAuth: recentAuthFor("submit") }, async (input, { actor, ip }) => {
  await submitPlan(actor, input.planId, { ip });
  refreshPlan(input.planId);
  return { message: "Sent for review." };
});
