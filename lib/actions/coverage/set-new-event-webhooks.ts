"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { setNewEventWebhooks } from "@/lib/setup/requirements";
import { plural } from "@/lib/text/plural";
import { setNewEventWebhooksSchema } from "./set-new-event-webhooks.validation";

/** Owners and admins (checked by the data function): the webhooks a live event missing a required trigger is added to, by a drafted plan. */
export const setNewEventWebhooksAction = authedAction(
  { name: "coverage.set-new-event-webhooks", schema: setNewEventWebhooksSchema },
  async ({ webhookIds, groupId }, { actor, ip }) => {
    await setNewEventWebhooks(actor, { webhookIds, groupId }, { ip });
    revalidatePath("/settings/checks");
    const named = [...(webhookIds.length > 0 ? [plural(webhookIds.length, "webhook")] : []), ...(groupId !== null ? [`group #${groupId}`] : [])];
    return { message: named.length === 0 ? "No webhooks named: nothing is drafted for new events." : `Saved: new events go to ${named.join(" and ")}.` };
  },
);
