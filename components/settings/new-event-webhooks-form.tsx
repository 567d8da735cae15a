"use client";

import { setNewEventWebhooksAction } from "@/lib/actions/coverage/set-new-event-webhooks";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/forms/form-message";
import { toastSuccess } from "@/components/forms/toast-success";
import { useActionForm } from "@/components/forms/use-action-form";

/** The webhooks every new event should have: ids picked one by one, and/or a group's. A refused save keeps what was typed. */
export function NewEventWebhooksForm({ webhookIds, groupId }: { webhookIds: readonly number[]; groupId: number | null }) {
  const { state, pending, fieldErrors, formProps } = useActionForm(setNewEventWebhooksAction, { onSuccess: toastSuccess });
  return (
    <form {...formProps} className="max-w-xl space-y-3" aria-label="Webhooks every new event should have" data-testid="new-event-webhooks-form">
      <FormMessage state={state} testId="new-event-webhooks" />
      <div className="space-y-1">
        <label htmlFor="new-event-webhook-ids" className="block text-sm font-medium text-slate-700">
          Webhook ids
        </label>
        <input
          id="new-event-webhook-ids"
          name="webhookIds"
          defaultValue={webhookIds.join(", ")}
          inputMode="numeric"
          placeholder="411, 412"
          aria-invalid={fieldErrors.webhookIds ? true : undefined}
          aria-describedby="new-event-webhook-ids-hint"
          className="block w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
          data-testid="new-event-webhook-ids"
        />
        <p id="new-event-webhook-ids-hint" className="text-xs text-slate-500">
          Separated by commas or spaces, as the Webhooks list numbers them.
        </p>
        {fieldErrors.webhookIds ? <p className="text-sm text-red-700">{fieldErrors.webhookIds}</p> : null}
      </div>
      <div className="space-y-1">
        <label htmlFor="new-event-group-id" className="block text-sm font-medium text-slate-700">
          and every webhook of the group (id)
        </label>
        <input
          id="new-event-group-id"
          name="groupId"
          defaultValue={groupId ?? ""}
          inputMode="numeric"
          aria-invalid={fieldErrors.groupId ? true : undefined}
          className="block w-full max-w-40 rounded-md border border-slate-300 px-3 py-2 text-sm"
          data-testid="new-event-group-id"
        />
        {fieldErrors.groupId ? <p className="text-sm text-red-700">{fieldErrors.groupId}</p> : null}
      </div>
      <Button type="submit" variant="secondary" size="sm" pending={pending}>
        Save webhooks for new events
      </Button>
    </form>
  );
}
