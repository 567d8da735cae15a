"use client";

import { applySandboxCredentialsAction } from "@/lib/actions/credentials/apply-sandbox-credentials";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/forms/form-message";
import { OpenWebhooksButton } from "@/components/onboarding/open-webhooks";
import { useActionForm } from "@/components/forms/use-action-form";

/**
 * The one-click choice: the built-in sandbox with one of its demo accounts. The server fills in the
 * demo key and secret, saves and tests them; they are never put in the page.
 */
export function SandboxQuickStart({ sandboxBaseUrl }: { sandboxBaseUrl: string }) {
  const { state, pending, formProps } = useActionForm(applySandboxCredentialsAction);
  return (
    <form {...formProps} className="space-y-3" aria-label="Use the built-in sandbox" data-testid="sandbox-quick-start">
      <p className="text-sm text-slate-600">
        A stand-in for the EMS API at <code className="rounded bg-slate-100 px-1">{sandboxBaseUrl}</code>, with sample webhook groups and events. Its demo credentials are
        filled in for you, saved and tested.
      </p>
      <fieldset className="flex flex-wrap gap-4 text-sm">
        <legend className="sr-only">Sandbox account</legend>
        <label className="flex items-center gap-2">
          <input type="radio" name="account" value="demo" defaultChecked /> Demo account
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name="account" value="other" /> Second demo account
        </label>
      </fieldset>
      <Button type="submit" variant="secondary" pending={pending}>
        Use the sandbox
      </Button>
      <FormMessage state={state} testId="sandbox-quick-start" />
      {state.status === "success" ? <OpenWebhooksButton /> : null}
    </form>
  );
}
