"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { setPlanReview } from "@/lib/plans/review";
import { setPlanReviewSchema } from "./set-plan-review.validation";

/** Owners choose whether plans need a second person's approval (lib/plans/review.ts checks who may). */
export const setPlanReviewAction = authedAction({ name: "plans.review-setting", schema: setPlanReviewSchema, recentAuth: "password" }, async (input, { actor, ip }) => {
  await setPlanReview(actor, input.review === "default" ? null : input.review === "on", { ip });
  revalidatePath("/team");
  return { message: "Saved." };
});
