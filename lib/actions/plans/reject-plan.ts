"use server";

import { authedAction } from "@/lib/actions/pipeline";
import { rejectPlan } from "@/lib/plans/review";
import { recentAuthFor, refreshPlan } from "./plan-moves";
import { rejectPlanSchema } from "./reject-plan.validation";

/** lib/plans/review.ts checks who may, inside (lib/plans/lifecycle.ts "reject"). */
export const rejectPlanAction = authedAction({ name: "plans.reject", schema: rejectPlanSchema, recentAuth: recentAuthFor("reject") }, async (input, { actor, ip }) => {
  await rejectPlan(actor, input.planId, input.reason, { ip });
  refreshPlan(input.planId);
  return { message: "Rejected." };
});
