"use client";

import { useState } from "react";
import { signOutOtherSessionsAction } from "@/lib/actions/auth/sign-out-other-sessions";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/forms/form-message";
import { useActionForm } from "@/components/forms/use-action-form";

/** Ends every other session, with a confirmation that says how many; this browser stays signed in. */
export function SignOutOtherSessionsForm({ others }: { others: number }) {
  const { state, pending, formProps } = useActionForm(signOutOtherSessionsAction, { onSuccess: () => undefined });
  const [confirming, setConfirming] = useState(false);
  const count = others === 1 ? "the 1 other session" : `all ${others} other sessions`;
  return (
    <form {...formProps} className="space-y-3" aria-label="Sign out of other sessions">
      <FormMessage state={state} testId="sign-out-others" />
      {others === 0 ? null : confirming ? (
        <div className="flex flex-wrap items-center gap-2 rounded-md border border-red-200 bg-red-50 p-3">
          <span className="min-w-0 flex-[1_1_14rem] text-sm text-red-900">Sign out of {count}? Only this browser stays signed in.</span>
          <Button type="submit" variant="danger" className="px-3 py-1.5" pending={pending}>
            Yes, sign out of {others === 1 ? "it" : "them"}
          </Button>
          <Button type="button" variant="ghost" className="px-3 py-1.5" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
        </div>
      ) : (
        <Button type="button" variant="secondary" onClick={() => setConfirming(true)}>
          Sign out of other sessions…
        </Button>
      )}
    </form>
  );
}
