"use server";

import { authedAction } from "@/lib/actions/pipeline";
import { draftUndoChange } from "@/lib/plans/undo-change";
import { showPlan } from "./show-plan";
import { draftUndoChangeSchema } from "./draft-undo-change.validation";

/** Drafting (lib/plans/draft.ts checks who may): the form's edits become a draft, shown at once. */
export const draftUndoChangeAction = authedAction({ name: "plans.draft-undo-change", schema: draftUndoChangeSchema }, async (input, { actor, ip }) =>
  showPlan(await draftUndoChange(actor, input.changeId, { ip })),
);
