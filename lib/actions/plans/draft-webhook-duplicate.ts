"use server";

import { authedAction } from "@/lib/actions/pipeline";
import { draftPlan } from "@/lib/plans/draft";
import { showPlan } from "./show-plan";
import { draftWebhookDuplicateSchema } from "./draft-webhook-duplicate.validation";

/** Drafting (lib/plans/draft.ts checks who may): the form's edits become a draft, shown at once. */
export const draftWebhookDuplicateAction = authedAction({ name: "plans.draft-webhook-duplicate", schema: draftWebhookDuplicateSchema }, async (input, { actor, ip }) =>
  showPlan(
    await draftPlan(actor, { title: input.title, edits: [{ kind: "webhook.duplicate", id: input.id, groupId: input.group_id, name: input.name || undefined }] }, { ip }),
  ),
);
