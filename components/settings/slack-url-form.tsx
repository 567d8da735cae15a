"use client";

import { setSlackUrlAction } from "@/lib/actions/alerts/set-slack-url";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { ConfirmSubmit } from "@/components/ui/confirm-submit";
import { FormMessage } from "@/components/forms/form-message";
import { toastSuccess } from "@/components/forms/toast-success";
import { useActionForm } from "@/components/forms/use-action-form";

/**
 * Owners: the team's Slack-compatible webhook URL. The saved URL is never sent back to the browser
 * (it holds the webhook's token): only its label (scheme and host). After a save the field is
 * emptied; a refused one keeps what was typed, to correct it.
 */
export function SlackUrlForm({ trackerId, label }: { trackerId: string; label: string | null }) {
  const { state, pending, fieldErrors, formProps } = useActionForm(setSlackUrlAction, {
    onSuccess(state, { form }) {
      const input = form.elements.namedItem("url");
      if (input instanceof HTMLInputElement) input.value = "";
      return toastSuccess(state);
    },
  });
  return (
    <div className="max-w-xl space-y-3">
      <p className="text-sm text-slate-700" data-testid="slack-url-label">
        {label ? (
          <>
            Alerts are posted to <span className="font-medium">{label}</span> (the rest of the URL is saved encrypted and never shown).
          </>
        ) : (
          "No Slack URL is set: alerts are not posted to Slack."
        )}
      </p>
      <form {...formProps} noValidate className="space-y-3" aria-label="Slack URL for alerts" data-testid="slack-url-form">
        <input type="hidden" name="trackerId" value={trackerId} />
        <FormMessage state={state} testId="slack-url" />
        <Field
          id="slack-url"
          name="url"
          label={label ? "Replace the Slack URL" : "Slack URL"}
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://hooks.slack.com/services/…"
          error={fieldErrors.url ?? fieldErrors.trackerId}
          hint="A Slack (or Slack-compatible) incoming-webhook URL: HTTPS, on a public host."
          required
        />
        <Button type="submit" variant="secondary" pending={pending}>
          Save Slack URL
        </Button>
      </form>
      {label ? <RemoveSlackUrlForm trackerId={trackerId} /> : null}
    </div>
  );
}

/** Clearing asks once more, in a confirmation dialog, like deleting credentials. */
function RemoveSlackUrlForm({ trackerId }: { trackerId: string }) {
  const { state, pending, formProps } = useActionForm(setSlackUrlAction, { onSuccess: toastSuccess });
  return (
    <form {...formProps} className="space-y-3" aria-label="Remove the Slack URL" data-testid="slack-url-remove-form">
      <input type="hidden" name="trackerId" value={trackerId} />
      <input type="hidden" name="url" value="" />
      <FormMessage state={state} testId="slack-url-remove" />
      <ConfirmSubmit
        trigger="Remove the Slack URL…"
        title="Stop posting alerts to Slack?"
        description="The saved URL is deleted. Alert emails are not affected."
        confirmLabel="Yes, remove the URL"
        pending={pending}
      />
    </form>
  );
}
