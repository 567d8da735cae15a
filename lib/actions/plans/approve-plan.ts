"use server";

import { authedAction } from "@/lib/actions/pipeline";
import { approvePlan } from "@/lib/plans/review";
import { recentAuthFor, refreshPlan } from "./plan-moves";
import { approvePlanSchema } from "./approve-plan.validation";

/** lib/plans/review.ts checks who may, inside (lib/plans/lifecycle.ts "approve"). */
export const approvePlanAction = authedAction(
  { name: "plans.approve", schema: approvePlanSchema, recentAuth: recentAuthFor("approve") },
  async (input, { actor, ip }) => {
    await approvePlan(actor, input.planId, { ip });
    refreshPlan(input.planId);
    return { message: "Approved. An owner or admin can apply it now." };
  },
);
