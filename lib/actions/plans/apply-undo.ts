"use server";

import { after } from "next/server";
import { authedAction } from "@/lib/actions/pipeline";
import { jobEngineOfThisServer } from "@/lib/jobs/server";
import { applyUndoNow } from "@/lib/plans/apply";
import { runPlan } from "@/lib/plans/run";
import { recentAuthFor, refreshPlan } from "./plan-moves";
import { applyUndoSchema } from "./apply-undo.validation";

/** How long the request itself applies steps where there is no job engine (as apply-plan.ts). */
const AFTER_ANSWER_SECONDS = 50;

/**
 * Applies an undo of a plan applied in the last 24 hours without a second approval (lib/plans/lifecycle.ts
 * "applyUndo", checked by lib/plans/apply.ts applyUndoNow): then it runs as any started plan.
 */
export const applyUndoAction = authedAction(
  { name: "plans.apply_undo", schema: applyUndoSchema, recentAuth: recentAuthFor("applyUndo") },
  async (input, { actor, ip }) => {
    await applyUndoNow(actor, input.planId, { ip });
    const engine = await jobEngineOfThisServer();
    if (engine) await engine.send("plan-apply");
    else after(() => runPlan(input.planId, { deadline: Date.now() + AFTER_ANSWER_SECONDS * 1000 }));
    refreshPlan(input.planId);
    return { message: "Undoing. Progress shows below." };
  },
);
