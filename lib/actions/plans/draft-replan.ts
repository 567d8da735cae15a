"use server";

import { authedAction } from "@/lib/actions/pipeline";
import { draftReplan } from "@/lib/plans/draft";
import { showPlan } from "./show-plan";
import { draftReplanSchema } from "./draft-replan.validation";

/** Drafting (lib/plans/draft.ts checks who may): the form's edits become a draft, shown at once. */
export const draftReplanAction = authedAction({ name: "plans.draft-replan", schema: draftReplanSchema }, async (input, { actor, ip }) =>
  showPlan(await draftReplan(actor, input.planId, { ip })),
);
