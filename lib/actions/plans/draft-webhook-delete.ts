"use server";

import { authedAction } from "@/lib/actions/pipeline";
import { draftPlan } from "@/lib/plans/draft";
import { showPlan } from "./show-plan";
import { draftWebhookDeleteSchema } from "./draft-webhook-delete.validation";

/** Drafting (lib/plans/draft.ts checks who may): the form's edits become a draft, shown at once. */
export const draftWebhookDeleteAction = authedAction({ name: "plans.draft-webhook-delete", schema: draftWebhookDeleteSchema }, async (input, { actor, ip }) =>
  showPlan(await draftPlan(actor, { title: input.title, edits: [{ kind: "webhook.delete", id: input.id }] }, { ip })),
);
