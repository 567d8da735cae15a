"use server";

import { authedAction } from "@/lib/actions/pipeline";
import { draftPlan } from "@/lib/plans/draft";
import { showPlan } from "./show-plan";
import { draftGroupCreateSchema } from "./draft-group-create.validation";

/** Drafting (lib/plans/draft.ts checks who may): the form's edits become a draft, shown at once. */
export const draftGroupCreateAction = authedAction({ name: "plans.draft-group-create", schema: draftGroupCreateSchema }, async (input, { actor, ip }) =>
  showPlan(await draftPlan(actor, { title: input.title, edits: [{ kind: "group.create", values: input.values }] }, { ip })),
);
