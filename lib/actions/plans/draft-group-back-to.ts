"use server";

import { authedAction } from "@/lib/actions/pipeline";
import { draftGroupBackTo } from "@/lib/plans/undo-as-of";
import { showPlan } from "./show-plan";
import { draftGroupBackToSchema } from "./draft-group-back-to.validation";

/** Drafting (lib/plans/draft.ts checks who may): the form's edits become a draft, shown at once. */
export const draftGroupBackToAction = authedAction({ name: "plans.draft-group-back-to", schema: draftGroupBackToSchema }, async (input, { actor, ip }) =>
  showPlan(await draftGroupBackTo(actor, input.groupId, input.at, { ip })),
);
