"use client";

import { revokeInvitationAction } from "@/lib/actions/team/revoke-invitation";
import { ConfirmSubmit } from "@/components/ui/confirm-submit";
import { FormMessage } from "@/components/forms/form-message";
import { toastSuccess } from "@/components/forms/toast-success";
import { useActionForm } from "@/components/forms/use-action-form";

/** Withdraws an open invitation after a confirmation: its link stops working at once. */
export function RevokeInvitationForm({ invitationId, label }: { invitationId: string; label: string }) {
  const { state, pending, formProps } = useActionForm(revokeInvitationAction, { onSuccess: toastSuccess });
  return (
    <form {...formProps} aria-label={`Withdraw ${label}`} className="space-y-2">
      <input type="hidden" name="invitationId" value={invitationId} />
      <ConfirmSubmit
        trigger="Withdraw…"
        title="Withdraw this invitation?"
        description={`The ${label} stops working at once; anyone who has not used the link yet cannot join with it.`}
        confirmLabel="Withdraw invitation"
        pending={pending}
        testId={`revoke-invitation-${invitationId}`}
      />
      <FormMessage state={state} testId={`revoke-${invitationId}`} />
    </form>
  );
}
