"use client";

import { setAlertPreferencesAction } from "@/lib/actions/alerts/set-alert-preferences";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/forms/form-message";
import { toastSuccess } from "@/components/forms/toast-success";
import { useActionForm } from "@/components/forms/use-action-form";

/** The person's own alert emails. A refused save keeps the boxes as they were ticked (the form hook does not reset). */
export function AlertPreferencesForm({ emailChanges, emailHealth, emailAvailable }: { emailChanges: boolean; emailHealth: boolean; emailAvailable: boolean }) {
  const { state, pending, formProps } = useActionForm(setAlertPreferencesAction, { onSuccess: toastSuccess });
  return (
    <form {...formProps} className="max-w-xl space-y-3" aria-label="Your alert emails" data-testid="alert-preferences-form">
      <FormMessage state={state} testId="alert-preferences" />
      <fieldset className="space-y-2" aria-describedby={emailAvailable ? undefined : "alert-email-off"}>
        <legend className="text-sm font-medium text-slate-700">Email me when</legend>
        <label className="flex items-start gap-2 text-sm text-slate-800">
          <input type="checkbox" name="emailChanges" defaultChecked={emailChanges} className="mt-0.5 size-4" data-testid="alert-email-changes" />
          <span>a sync finds changes to the webhook setup</span>
        </label>
        <label className="flex items-start gap-2 text-sm text-slate-800">
          <input type="checkbox" name="emailHealth" defaultChecked={emailHealth} className="mt-0.5 size-4" data-testid="alert-email-health" />
          <span>a health check starts failing</span>
        </label>
        {emailAvailable ? null : (
          <p id="alert-email-off" className="text-xs text-amber-800" data-testid="alert-email-off">
            Email is off on this deployment (no mail server is configured): your choice is kept, but no email is sent until an operator sets SMTP_URL.
          </p>
        )}
      </fieldset>
      <Button type="submit" variant="secondary" pending={pending}>
        Save email choices
      </Button>
    </form>
  );
}
