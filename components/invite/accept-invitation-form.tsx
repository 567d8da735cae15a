"use client";

import { acceptInvitationAction } from "@/lib/actions/team/accept-invitation";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/forms/form-message";
import { useActionForm } from "@/components/forms/use-action-form";

export function AcceptInvitationForm({ token, teamName }: { token: string; teamName: string }) {
  const { state, pending, formProps } = useActionForm(acceptInvitationAction);
  return (
    <form {...formProps} className="space-y-3" aria-label={`Join ${teamName}`}>
      <input type="hidden" name="token" value={token} />
      <FormMessage state={state} testId="accept-invitation" />
      <Button type="submit" pending={pending} className="w-full">
        Join {teamName}
      </Button>
    </form>
  );
}
