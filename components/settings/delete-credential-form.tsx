"use client";

import { deleteCredentialsAction } from "@/lib/actions/credentials/delete-credentials";
import { buttonClasses } from "@/components/ui/button";
import { ConfirmSubmit } from "@/components/ui/confirm-submit";
import { FormMessage } from "@/components/forms/form-message";
import { toastSuccess } from "@/components/forms/toast-success";
import { useActionForm } from "@/components/forms/use-action-form";

/** Deleting asks once more, in a confirmation dialog (focus trapped, Esc cancels). */
export function DeleteCredentialForm({ credentialId }: { credentialId: string }) {
  const { state, pending, formProps } = useActionForm(deleteCredentialsAction, { onSuccess: toastSuccess });
  return (
    <form {...formProps} className="space-y-3" aria-label="Delete API credentials">
      <input type="hidden" name="credentialId" value={credentialId} />
      <FormMessage state={state} testId="delete-credential" />
      <ConfirmSubmit
        trigger="Delete credentials…"
        title="Delete your API credentials?"
        description="Pages that call the EMS API stop working for you until you add credentials again. Your teammates' credentials are not affected."
        confirmLabel="Yes, delete them"
        pending={pending}
        triggerClassName={buttonClasses("secondary")}
        testId="delete-credentials"
      />
    </form>
  );
}
