"use client";

import { stopTrackingAction } from "@/lib/actions/history/stop-tracking";
import { buttonClasses } from "@/components/ui/button";
import { ConfirmSubmit } from "@/components/ui/confirm-submit";
import { FormMessage } from "@/components/forms/form-message";
import { toastSuccess } from "@/components/forms/toast-success";
import { useActionForm } from "@/components/forms/use-action-form";

/** Stopping deletes the history, so it asks once more (and the action asks for the password if it is not recent). */
export function StopTrackingForm({ trackerId, accountLabel }: { trackerId: string; accountLabel: string }) {
  const { state, pending, formProps } = useActionForm(stopTrackingAction, { onSuccess: toastSuccess });
  return (
    <form {...formProps} className="space-y-3" aria-label={`Stop tracking ${accountLabel}`}>
      <input type="hidden" name="trackerId" value={trackerId} />
      <FormMessage state={state} testId="stop-tracking" />
      <ConfirmSubmit
        trigger="Stop tracking…"
        title={`Stop tracking ${accountLabel}?`}
        description="Every change recorded for this account is deleted. This cannot be undone."
        confirmLabel="Yes, stop and delete history"
        pending={pending}
        triggerClassName={buttonClasses("secondary")}
      />
    </form>
  );
}
