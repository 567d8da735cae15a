"use client";

import { revokeInvitationAction } from "@/lib/actions/team/revoke-invitation";
import { Button } from "@/components/ui/button";
import { FormMessage } from "../../settings/_components/form-message";
import { useFormAction } from "../../settings/_components/use-form-action";

export function RevokeInvitationForm({ invitationId, label }: { invitationId: string; label: string }) {
  const { state, pending, onSubmit } = useFormAction(revokeInvitationAction);
  return (
    <form onSubmit={onSubmit} aria-label={`Withdraw ${label}`} className="space-y-2">
      <input type="hidden" name="invitationId" value={invitationId} />
      <Button type="submit" variant="ghost" className="px-3 py-1.5 text-red-700" pending={pending}>
        Withdraw
      </Button>
      <FormMessage state={state} testId={`revoke-${invitationId}`} />
    </form>
  );
}
