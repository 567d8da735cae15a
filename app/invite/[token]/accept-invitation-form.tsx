"use client";

import { acceptInvitationAction } from "@/lib/actions/team/accept-invitation";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/app/(portal)/settings/_components/form-message";
import { useFormAction } from "@/app/(portal)/settings/_components/use-form-action";

export function AcceptInvitationForm({ token, teamName }: { token: string; teamName: string }) {
  const { state, pending, onSubmit } = useFormAction(acceptInvitationAction);
  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-label={`Join ${teamName}`}>
      <input type="hidden" name="token" value={token} />
      <FormMessage state={state} testId="accept-invitation" />
      <Button type="submit" pending={pending} className="w-full">
        Join {teamName}
      </Button>
    </form>
  );
}
