"use server";

import { after } from "next/server";
import { authedAction } from "@/lib/actions/pipeline";
import { jobEngineOfThisServer } from "@/lib/jobs/server";
import { startApply } from "@/lib/plans/apply";
import { runPlan } from "@/lib/plans/run";
import { recentAuthFor, refreshPlan } from "./plan-moves";
import { applyPlanSchema } from "./apply-plan.validation";

/** How long the request itself applies steps where there is no job engine (Vercel's default function limit is 60 s). */
const AFTER_ANSWER_SECONDS = 50;

/**
 * Starts applying (lib/plans/apply.ts checks who may: lib/plans/lifecycle.ts "apply"): the job engine
 * runs it (any instance, resumable); where there is no engine (Vercel), this function's own time after
 * the answer does, stopping between steps before its limit, and the cron route (/api/cron/plans)
 * takes up what it leaves.
 */
export const applyPlanAction = authedAction({ name: "plans.apply", schema: applyPlanSchema, recentAuth: recentAuthFor("apply") }, async (input, { actor, ip }) => {
  await startApply(actor, input.planId, { ip });
  const engine = await jobEngineOfThisServer();
  if (engine) await engine.send("plan-apply");
  else after(() => runPlan(input.planId, { deadline: Date.now() + AFTER_ANSWER_SECONDS * 1000 }));
  refreshPlan(input.planId);
  return { message: "Applying. Progress shows below." };
});
