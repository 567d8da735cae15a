"use server";

import { authedAction } from "@/lib/actions/pipeline";
import { draftPlan } from "@/lib/plans/draft";
import { showPlan } from "./show-plan";
import { draftWebhookEditSchema } from "./draft-webhook-edit.validation";

/** Drafting (lib/plans/draft.ts checks who may): the form's edits become a draft, shown at once. */
export const draftWebhookEditAction = authedAction({ name: "plans.draft-webhook-edit", schema: draftWebhookEditSchema }, async (input, { actor, ip }) =>
  showPlan(
    await draftPlan(actor, { title: input.title, edits: [{ kind: "webhook.update", id: input.id, values: input.values }], replacesPlanId: input.replacesPlanId }, { ip }),
  ),
);
