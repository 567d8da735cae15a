"use server";

import { after } from "next/server";
import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { jobEngineOfThisServer } from "@/lib/jobs/server";
import { startApply } from "@/lib/plans/apply";
import { approvePlan, cancelPlan, rejectPlan, setPlanReview, submitPlan } from "@/lib/plans/review";
import { runPlan } from "@/lib/plans/run";
import { planIdSchema, planReviewSchema, rejectSchema } from "./plan.validation";

/**
 * A plan's review and apply (lib/plans/review.ts and apply.ts check who may, inside). Approving,
 * applying, rejecting and cancelling decide what reaches the EMS: they need a recent password
 * (`recentAuth: "password"`), so a cookie from an unlocked laptop cannot send a team's registrant
 * data elsewhere, nor stop a fix someone else approved.
 */

const refresh = (planId: string) => {
  revalidatePath(`/plans/${planId}`);
  revalidatePath("/plans");
};

export const submitPlanAction = authedAction({ name: "plans.submit", schema: planIdSchema }, async (input, { actor, ip }) => {
  await submitPlan(actor, input.planId, { ip });
  refresh(input.planId);
  return { message: "Sent for review." };
});

export const approvePlanAction = authedAction({ name: "plans.approve", schema: planIdSchema, recentAuth: "password" }, async (input, { actor, ip }) => {
  await approvePlan(actor, input.planId, { ip });
  refresh(input.planId);
  return { message: "Approved. An owner or admin can apply it now." };
});

export const rejectPlanAction = authedAction({ name: "plans.reject", schema: rejectSchema, recentAuth: "password" }, async (input, { actor, ip }) => {
  await rejectPlan(actor, input.planId, input.reason, { ip });
  refresh(input.planId);
  return { message: "Rejected." };
});

export const cancelPlanAction = authedAction({ name: "plans.cancel", schema: planIdSchema, recentAuth: "password" }, async (input, { actor, ip }) => {
  const outcome = await cancelPlan(actor, input.planId, { ip });
  refresh(input.planId);
  return { message: outcome === "cancelled" ? "Cancelled." : "Stopping after the step under way." };
});

/** How long the request itself applies steps where there is no job engine (Vercel's default function limit is 60 s). */
const AFTER_ANSWER_SECONDS = 50;

/**
 * Starts applying: the job engine runs it (any instance, resumable); where there is no engine (Vercel),
 * this function's own time after the answer does, stopping between steps before its limit, and the
 * cron route (/api/cron/plans) takes up what it leaves.
 */
export const applyPlanAction = authedAction({ name: "plans.apply", schema: planIdSchema, recentAuth: "password" }, async (input, { actor, ip }) => {
  await startApply(actor, input.planId, { ip });
  const engine = await jobEngineOfThisServer();
  if (engine) await engine.send("plan-apply");
  else after(() => runPlan(input.planId, { deadline: Date.now() + AFTER_ANSWER_SECONDS * 1000 }));
  refresh(input.planId);
  return { message: "Applying. Progress shows below." };
});

export const setPlanReviewAction = authedAction({ name: "plans.review-setting", schema: planReviewSchema, recentAuth: "password" }, async (input, { actor, ip }) => {
  await setPlanReview(actor, input.review === "default" ? null : input.review === "on", { ip });
  revalidatePath("/team");
  return { message: "Saved." };
});
