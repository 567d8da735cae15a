"use server";

import { after } from "next/server";
import { authedAction } from "@/lib/actions/pipeline";
import { jobEngineOfThisServer } from "@/lib/jobs/server";
import { approveAndApplyPlan } from "@/lib/plans/approve-and-apply";
import { runPlan } from "@/lib/plans/run";
import { refreshPlan } from "./plan-moves";
import { approveAndApplyPlanSchema } from "./approve-and-apply-plan.validation";

/** As apply-plan.ts: the request's own time applies where there is no job engine. */
const AFTER_ANSWER_SECONDS = 50;

/**
 * A reviewer's one step on a drafted fix: approve, then apply (lib/plans/approve-and-apply.ts checks
 * both moves, lib/plans/lifecycle.ts `decideApproveAndApply`), with a recent password as each needs.
 */
export const approveAndApplyPlanAction = authedAction(
  { name: "plans.approve-and-apply", schema: approveAndApplyPlanSchema, recentAuth: "password" },
  async (input, { actor, ip }) => {
    await approveAndApplyPlan(actor, input.planId, { ip });
    const engine = await jobEngineOfThisServer();
    if (engine) await engine.send("plan-apply");
    else after(() => runPlan(input.planId, { deadline: Date.now() + AFTER_ANSWER_SECONDS * 1000 }));
    refreshPlan(input.planId);
    return { message: "Approved and applying. Progress shows below." };
  },
);
