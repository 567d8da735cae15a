"use client";

import { endSessionAction } from "@/lib/actions/auth/end-session";
import { buttonClasses } from "@/components/ui/button";
import { ConfirmSubmit } from "@/components/ui/confirm-submit";
import { FormMessage } from "@/components/forms/form-message";
import { toastSuccess } from "@/components/forms/toast-success";
import { useActionForm } from "@/components/forms/use-action-form";

/** "End session…", then a confirmation naming the browser; that browser is signed out at its next request. */
export function EndSessionForm({ sessionId, label }: { sessionId: string; label: string }) {
  const { state, pending, formProps } = useActionForm(endSessionAction, { onSuccess: toastSuccess });
  return (
    <form {...formProps} className="flex flex-wrap items-center justify-end gap-2" aria-label={`End session: ${label}`}>
      <input type="hidden" name="sessionId" value={sessionId} />
      <ConfirmSubmit
        trigger="End session…"
        title="End this session?"
        description={`${label} will be signed out at its next request.`}
        confirmLabel="Yes, end session"
        pending={pending}
        triggerClassName={buttonClasses("secondary", { size: "sm" })}
      />
      {state.status === "error" ? (
        <div className="w-full">
          <FormMessage state={state} testId={`end-session-${sessionId}`} />
        </div>
      ) : null}
    </form>
  );
}
