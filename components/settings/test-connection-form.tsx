"use client";

import { testConnectionAction } from "@/lib/actions/credentials/test-connection";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/forms/form-message";
import { useActionForm } from "@/components/forms/use-action-form";
import { formatDateTime } from "@/lib/time/format";

export function TestConnectionForm() {
  const { state, pending, formProps } = useActionForm(testConnectionAction);
  return (
    <form {...formProps} className="space-y-3" aria-label="Test connection" data-testid="test-connection-form">
      <Button type="submit" variant="secondary" pending={pending}>
        {pending ? "Testing…" : "Test connection"}
      </Button>
      <FormMessage state={state} testId="test-connection" />
      {state.status === "success" && state.data ? (
        <dl className="grid max-w-md grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-testid="test-connection-details">
          <dt className="text-slate-500">Token expires</dt>
          <dd>{formatDateTime(state.data.expiresAt, Intl.DateTimeFormat().resolvedOptions().timeZone)}</dd>
          <dt className="text-slate-500">Webhook groups</dt>
          <dd data-testid="webhook-group-count">{state.data.webhookGroupCount}</dd>
        </dl>
      ) : null}
    </form>
  );
}
