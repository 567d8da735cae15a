"use client";

import { useState } from "react";
import { deleteCredentialsAction } from "@/lib/actions/credentials/delete-credentials";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/forms/form-message";
import { useActionForm } from "@/components/forms/use-action-form";

/** Deleting asks once more, inline (no browser dialog, so it works the same with a keyboard or a test). */
export function DeleteCredentialForm({ credentialId }: { credentialId: string }) {
  const { state, pending, formProps } = useActionForm(deleteCredentialsAction);
  const [confirming, setConfirming] = useState(false);
  return (
    <form {...formProps} className="space-y-3" aria-label="Delete API credentials">
      <input type="hidden" name="credentialId" value={credentialId} />
      <FormMessage state={state} testId="delete-credential" />
      {confirming ? (
        <div className="flex flex-wrap items-center gap-3" role="group" aria-labelledby="delete-credential-question">
          <p id="delete-credential-question" className="text-sm text-slate-700">
            Delete your API credentials? Pages that call the EMS API stop working for you until you add them again.
          </p>
          <Button type="submit" variant="danger" pending={pending}>
            Yes, delete them
          </Button>
          <Button type="button" variant="ghost" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
        </div>
      ) : (
        <Button type="button" variant="secondary" onClick={() => setConfirming(true)}>
          Delete credentials…
        </Button>
      )}
    </form>
  );
}
