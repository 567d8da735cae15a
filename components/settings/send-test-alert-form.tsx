"use client";

import { sendTestAlertAction } from "@/lib/actions/alerts/send-test-alert";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/forms/form-message";
import { toastSuccess } from "@/components/forms/toast-success";
import { useActionForm } from "@/components/forms/use-action-form";

/** Owners and admins: a test alert to Slack or to themselves, which then shows in the list below. */
export function SendTestAlertForm({ trackerId, slackSet, emailAvailable }: { trackerId: string; slackSet: boolean; emailAvailable: boolean }) {
  const { state, pending, formProps } = useActionForm(sendTestAlertAction, { onSuccess: toastSuccess });
  return (
    <form {...formProps} className="space-y-3" aria-label="Send a test alert" data-testid="send-test-alert-form">
      <input type="hidden" name="trackerId" value={trackerId} />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="secondary" name="channel" value="slack" disabled={!slackSet} pending={pending}>
          Send a test to Slack
        </Button>
        <Button type="submit" variant="secondary" name="channel" value="email" disabled={!emailAvailable} pending={pending}>
          Send a test email to me
        </Button>
      </div>
      <FormMessage state={state} testId="send-test-alert" />
    </form>
  );
}
