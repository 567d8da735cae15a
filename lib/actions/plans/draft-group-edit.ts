"use server";

import { authedAction } from "@/lib/actions/pipeline";
import { draftPlan } from "@/lib/plans/draft";
import { showPlan } from "./show-plan";
import { draftGroupEditSchema } from "./draft-group-edit.validation";

/** Drafting (lib/plans/draft.ts checks who may): the form's edits become a draft, shown at once. */
export const draftGroupEditAction = authedAction({ name: "plans.draft-group-edit", schema: draftGroupEditSchema }, async (input, { actor, ip }) =>
  showPlan(await draftPlan(actor, { title: input.title, edits: [{ kind: "group.update", id: input.id, values: input.values }] }, { ip })),
);
