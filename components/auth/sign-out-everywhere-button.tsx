"use client";

import { signOutAndLeave } from "@/lib/auth/client-sign-out";
import { signOutEverywhereAction } from "@/lib/actions/auth/sign-out-everywhere";
import { useActionForm } from "@/components/forms/use-action-form";
import { FormMessage } from "@/components/forms/form-message";
import { ConfirmSubmit } from "@/components/ui/confirm-submit";
import { buttonClasses } from "@/components/ui/button";

/**
 * Ends every session, after a confirmation; this browser then signs out through next-auth and
 * lands on the sign-in page.
 */
export function SignOutEverywhereButton() {
  const { state, pending, formProps } = useActionForm(signOutEverywhereAction, { onSuccess: () => signOutAndLeave() });
  return (
    <form {...formProps} className="space-y-3" aria-label="Sign out of all sessions">
      <FormMessage state={state} testId="sign-out-everywhere" />
      <ConfirmSubmit
        trigger="Sign out of all sessions…"
        title="Sign out of all sessions?"
        description="Every browser signed in to your account is signed out, this one included. You will need your password to sign in again."
        confirmLabel="Sign out everywhere"
        pending={pending}
        triggerClassName={buttonClasses("danger")}
        testId="sign-out-everywhere"
      />
    </form>
  );
}
