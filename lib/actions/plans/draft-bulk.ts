"use server";

import { authedAction } from "@/lib/actions/pipeline";
import { draftPlan } from "@/lib/plans/draft";
import type { GroupBulkEdit, WebhookBulkEdit } from "@/lib/plans/bulk";
import { showPlan } from "./show-plan";
import { draftBulkSchema } from "./draft-bulk.validation";

/** Drafting (lib/plans/draft.ts checks who may): the form's edits become a draft, shown at once. */
export const draftBulkAction = authedAction({ name: "plans.draft-bulk", schema: draftBulkSchema }, async (input, { actor, ip }) =>
  showPlan(
    await draftPlan(
      actor,
      {
        title: input.title,
        edits: [
          input.resource === "webhooks"
            ? { kind: "webhooks.bulk", ids: input.ids, edit: input.edit as WebhookBulkEdit }
            : { kind: "groups.bulk", ids: input.ids, edit: input.edit as GroupBulkEdit },
        ],
      },
      { ip },
    ),
  ),
);
