"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { authedAction } from "@/lib/actions/pipeline";
import { draftPlan, draftReplan, draftUndoPlan } from "@/lib/plans/draft";
import { draftUndoChange } from "@/lib/plans/undo-change";
import { draftGroupBackTo } from "@/lib/plans/undo-as-of";
import type { PlanEdit } from "@/lib/plans/edits";
import type { GroupBulkEdit, WebhookBulkEdit } from "@/lib/plans/bulk";
import {
  bulkSchema,
  changeIdSchema,
  groupBackToSchema,
  groupCreateSchema,
  groupDeleteSchema,
  groupEditSchema,
  planIdSchema,
  webhookCreateSchema,
  webhookDeleteSchema,
  webhookDuplicateSchema,
  webhookEditSchema,
} from "./plan.validation";

/**
 * Drafting (lib/plans/draft.ts checks who may): each form's edits become a draft plan, and the
 * person lands on its page to see the diff and the impact before anything is sent for review. A
 * draft changes nothing in the EMS, so it needs no recent password (approving and applying do).
 */

/** Where every drafting action ends: the new plan's page (and the list shows it). */
function showPlan({ planId }: { planId: string }): never {
  revalidatePath("/plans");
  redirect(`/plans/${planId}`);
}

async function toPlan(actor: Parameters<typeof draftPlan>[0], title: string | undefined, edits: PlanEdit[], ip: string, replacesPlanId?: string): Promise<never> {
  showPlan(await draftPlan(actor, { title, edits, replacesPlanId }, { ip }));
}

export const draftWebhookEditAction = authedAction({ name: "plans.draft-webhook-edit", schema: webhookEditSchema }, async (input, { actor, ip }) =>
  toPlan(actor, input.title, [{ kind: "webhook.update", id: input.id, values: input.values }], ip, input.replacesPlanId),
);

export const draftWebhookCreateAction = authedAction({ name: "plans.draft-webhook-create", schema: webhookCreateSchema }, async (input, { actor, ip }) =>
  toPlan(actor, input.title, [{ kind: "webhook.create", values: input.values as Extract<PlanEdit, { kind: "webhook.create" }>["values"] }], ip),
);

export const draftWebhookDuplicateAction = authedAction({ name: "plans.draft-webhook-duplicate", schema: webhookDuplicateSchema }, async (input, { actor, ip }) =>
  toPlan(actor, input.title, [{ kind: "webhook.duplicate", id: input.id, groupId: input.group_id, name: input.name || undefined }], ip),
);

export const draftWebhookDeleteAction = authedAction({ name: "plans.draft-webhook-delete", schema: webhookDeleteSchema }, async (input, { actor, ip }) =>
  toPlan(actor, input.title, [{ kind: "webhook.delete", id: input.id }], ip),
);

export const draftGroupEditAction = authedAction({ name: "plans.draft-group-edit", schema: groupEditSchema }, async (input, { actor, ip }) =>
  toPlan(actor, input.title, [{ kind: "group.update", id: input.id, values: input.values }], ip),
);

export const draftGroupCreateAction = authedAction({ name: "plans.draft-group-create", schema: groupCreateSchema }, async (input, { actor, ip }) =>
  toPlan(actor, input.title, [{ kind: "group.create", values: input.values }], ip),
);

export const draftGroupDeleteAction = authedAction({ name: "plans.draft-group-delete", schema: groupDeleteSchema }, async (input, { actor, ip }) =>
  toPlan(actor, input.title, [{ kind: "group.delete", id: input.id }], ip),
);

export const draftBulkAction = authedAction({ name: "plans.draft-bulk", schema: bulkSchema }, async (input, { actor, ip }) =>
  toPlan(
    actor,
    input.title,
    [
      input.resource === "webhooks"
        ? { kind: "webhooks.bulk", ids: input.ids, edit: input.edit as WebhookBulkEdit }
        : { kind: "groups.bulk", ids: input.ids, edit: input.edit as GroupBulkEdit },
    ],
    ip,
  ),
);

export const draftUndoAction = authedAction({ name: "plans.draft-undo", schema: planIdSchema }, async (input, { actor, ip }) =>
  showPlan(await draftUndoPlan(actor, input.planId, { ip })),
);

export const draftUndoChangeAction = authedAction({ name: "plans.draft-undo-change", schema: changeIdSchema }, async (input, { actor, ip }) =>
  showPlan(await draftUndoChange(actor, input.changeId, { ip })),
);

export const draftGroupBackToAction = authedAction({ name: "plans.draft-group-back-to", schema: groupBackToSchema }, async (input, { actor, ip }) =>
  showPlan(await draftGroupBackTo(actor, input.groupId, input.at, { ip })),
);

export const draftReplanAction = authedAction({ name: "plans.draft-replan", schema: planIdSchema }, async (input, { actor, ip }) =>
  showPlan(await draftReplan(actor, input.planId, { ip })),
);
