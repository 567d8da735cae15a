"use server";

import { authedAction } from "@/lib/actions/pipeline";
import { draftUndoPlan } from "@/lib/plans/draft";
import { showPlan } from "./show-plan";
import { draftUndoSchema } from "./draft-undo.validation";

/** Drafting (lib/plans/draft.ts checks who may): the form's edits become a draft, shown at once. */
export const draftUndoAction = authedAction({ name: "plans.draft-undo", schema: draftUndoSchema }, async (input, { actor, ip }) =>
  showPlan(await draftUndoPlan(actor, input.planId, { ip })),
);
