"use client";

import { revokeInvitationAction } from "@/lib/actions/team/revoke-invitation";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/forms/form-message";
import { useActionForm } from "@/components/forms/use-action-form";

export function RevokeInvitationForm({ invitationId, label }: { invitationId: string; label: string }) {
  const { state, pending, formProps } = useActionForm(revokeInvitationAction);
  return (
    <form {...formProps} aria-label={`Withdraw ${label}`} className="space-y-2">
      <input type="hidden" name="invitationId" value={invitationId} />
      <Button type="submit" variant="ghost" className="px-3 py-1.5 text-red-700" pending={pending}>
        Withdraw
      </Button>
      <FormMessage state={state} testId={`revoke-${invitationId}`} />
    </form>
  );
}
