"use client";

import { signOutOtherSessionsAction } from "@/lib/actions/auth/sign-out-other-sessions";
import { buttonClasses } from "@/components/ui/button";
import { ConfirmSubmit } from "@/components/ui/confirm-submit";
import { FormMessage } from "@/components/forms/form-message";
import { toastSuccess } from "@/components/forms/toast-success";
import { useActionForm } from "@/components/forms/use-action-form";

/** Ends every other session, with a confirmation that says how many; this browser stays signed in. */
export function SignOutOtherSessionsForm({ others }: { others: number }) {
  const { state, pending, formProps } = useActionForm(signOutOtherSessionsAction, { onSuccess: toastSuccess });
  const count = others === 1 ? "the 1 other session" : `all ${others} other sessions`;
  return (
    <form {...formProps} className="space-y-3" aria-label="Sign out of other sessions">
      <FormMessage state={state} testId="sign-out-others" />
      {others === 0 ? null : (
        <ConfirmSubmit
          trigger="Sign out of other sessions…"
          title={`Sign out of ${count}?`}
          description="Only this browser stays signed in. The others are signed out at their next request."
          confirmLabel={`Yes, sign out of ${others === 1 ? "it" : "them"}`}
          pending={pending}
          triggerClassName={buttonClasses("secondary")}
        />
      )}
    </form>
  );
}
