"use server";

import { authedAction } from "@/lib/actions/pipeline";
import { draftPlan } from "@/lib/plans/draft";
import type { PlanEdit } from "@/lib/plans/edits";
import { showPlan } from "./show-plan";
import { draftWebhookCreateSchema } from "./draft-webhook-create.validation";

/** Drafting (lib/plans/draft.ts checks who may): the form's edits become a draft, shown at once. */
export const draftWebhookCreateAction = authedAction({ name: "plans.draft-webhook-create", schema: draftWebhookCreateSchema }, async (input, { actor, ip }) =>
  showPlan(
    await draftPlan(
      actor,
      { title: input.title, edits: [{ kind: "webhook.create", values: input.values as Extract<PlanEdit, { kind: "webhook.create" }>["values"] }] },
      { ip },
    ),
  ),
);
