"use client";

import { saveCredentialsAction } from "@/lib/actions/credentials/save-credentials";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { FormMessage } from "@/components/forms/form-message";
import { OpenWebhooksButton } from "@/components/onboarding/open-webhooks";
import { useActionForm } from "@/components/forms/use-action-form";
import { useIsLatestMessage } from "@/components/forms/latest-message";

/**
 * Base URL, consumer key and consumer secret. The key and secret fields start empty every time:
 * saved values are never sent back to the browser. After a successful save they are cleared.
 * Saving asks the EMS first; when it does not answer, the form offers to save without the check
 * (the same fields, sent again with saveAnyway=1), keeping what was typed.
 */
export function CredentialForm({ defaultBaseUrl, sandboxBaseUrl, replacing }: { defaultBaseUrl: string; sandboxBaseUrl: string | null; replacing: boolean }) {
  const { state, pending, fieldErrors, formProps } = useActionForm(saveCredentialsAction, {
    onSuccess(_state, { form }) {
      for (const name of ["consumerKey", "consumerSecret"]) {
        const input = form.elements.namedItem(name);
        if (input instanceof HTMLInputElement) input.value = "";
      }
    },
  });

  const checkIsLatest = useIsLatestMessage("credential-form", state);

  return (
    <form
      {...formProps}
      noValidate
      className="max-w-xl space-y-4"
      aria-label={replacing ? "Replace API credentials" : "Add API credentials"}
      data-testid="credential-form"
    >
      {fieldErrors.saveAnyway && checkIsLatest ? (
        <Notice tone="warning" title="The EMS API did not confirm these credentials" testId="credential-check-failed">
          <p>{fieldErrors.saveAnyway}</p>
          <Button type="submit" name="saveAnyway" value="1" variant="secondary" className="mt-3" pending={pending}>
            Save anyway
          </Button>
        </Notice>
      ) : (
        <FormMessage state={state} testId="credential-form" />
      )}
      {state.status === "success" && state.data?.connected ? <OpenWebhooksButton /> : null}
      <div>
        <Field
          id="credential-base-url"
          name="baseUrl"
          label="Base URL"
          type="url"
          inputMode="url"
          autoComplete="url"
          spellCheck={false}
          placeholder="https://api.example.com"
          defaultValue={defaultBaseUrl}
          error={fieldErrors.baseUrl}
          hint="The public HTTPS address before /api/v1 (the built-in sandbox is the one exception)."
          required
        />
        {sandboxBaseUrl ? (
          <button
            type="button"
            className="mt-2 text-sm font-medium text-brand-700 underline-offset-2 hover:underline"
            onClick={() => {
              const input = document.getElementById("credential-base-url");
              if (input instanceof HTMLInputElement) {
                input.value = sandboxBaseUrl;
                input.focus();
              }
            }}
          >
            Use the built-in sandbox URL ({sandboxBaseUrl})
          </button>
        ) : null}
      </div>
      <Field name="consumerKey" label="Consumer key" autoComplete="off" spellCheck={false} error={fieldErrors.consumerKey} required />
      <Field
        name="consumerSecret"
        label="Consumer secret"
        type="password"
        autoComplete="new-password"
        spellCheck={false}
        error={fieldErrors.consumerSecret}
        hint="Stored encrypted. It is never shown again, not even to you or your team's admins."
        required
      />
      <Button type="submit" pending={pending}>
        {replacing ? "Replace credentials" : "Save credentials"}
      </Button>
    </form>
  );
}
