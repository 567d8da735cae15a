"use server";

import { authedAction } from "@/lib/actions/pipeline";
import { draftPlan } from "@/lib/plans/draft";
import { showPlan } from "./show-plan";
import { draftGroupDeleteSchema } from "./draft-group-delete.validation";

/** Drafting (lib/plans/draft.ts checks who may): the form's edits become a draft, shown at once. */
export const draftGroupDeleteAction = authedAction({ name: "plans.draft-group-delete", schema: draftGroupDeleteSchema }, async (input, { actor, ip }) =>
  showPlan(await draftPlan(actor, { title: input.title, edits: [{ kind: "group.delete", id: input.id }] }, { ip })),
);
