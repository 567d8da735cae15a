"use client";

import { signOutAndLeave } from "@/lib/auth/client-sign-out";
import { signOutEverywhereAction } from "@/lib/actions/auth/sign-out-everywhere";
import { useActionForm } from "@/components/forms/use-action-form";
import { FormMessage } from "@/components/forms/form-message";
import { Button } from "@/components/ui/button";

/** Ends every session; this browser then signs out through next-auth and lands on the sign-in page. */
export function SignOutEverywhereButton() {
  const { state, pending, formProps } = useActionForm(signOutEverywhereAction, { onSuccess: () => signOutAndLeave() });
  return (
    <form {...formProps} className="space-y-3">
      <FormMessage state={state} testId="sign-out-everywhere" />
      <Button type="submit" variant="danger" pending={pending}>
        Sign out of all sessions
      </Button>
    </form>
  );
}
