"use client";

import { useRouter } from "next/navigation";
import { disableTwoFactorAction } from "@/lib/actions/two-factor/disable";
import { regenerateRecoveryCodesAction } from "@/lib/actions/two-factor/regenerate-recovery-codes";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { RecoveryCodes } from "./recovery-codes";

/** Turning two-factor off: a current code (or a recovery code), after a recent re-authentication. */
export function DisableTwoFactorForm() {
  const { state, pending, fieldErrors, formProps } = useActionForm(disableTwoFactorAction);
  return (
    <form {...formProps} className="space-y-3" noValidate aria-label="Turn off two-factor sign-in">
      {state.status === "error" && state.message ? <Notice tone="error">{state.message}</Notice> : null}
      <div className="flex flex-wrap items-end gap-3">
        <Field
          id="disable-code"
          name="code"
          label="Code from the app, or a recovery code"
          autoComplete="one-time-code"
          error={fieldErrors.code}
          className="w-72 max-w-full"
        />
        <Button type="submit" variant="danger" pending={pending} className={fieldErrors.code ? "mb-7" : undefined}>
          Turn off two-factor
        </Button>
      </div>
    </form>
  );
}

/** Ten new recovery codes for a current code; shown once. */
export function RegenerateRecoveryCodesForm() {
  const router = useRouter();
  const { state, pending, fieldErrors, formProps } = useActionForm(regenerateRecoveryCodesAction);
  if (state.status === "success" && state.data) {
    return <RecoveryCodes codes={state.data.recoveryCodes} onDone={() => router.refresh()} />;
  }
  return (
    <form {...formProps} className="space-y-3" noValidate aria-label="Make new recovery codes">
      {state.status === "error" && state.message ? <Notice tone="error">{state.message}</Notice> : null}
      <div className="flex flex-wrap items-end gap-3">
        <Field
          id="regenerate-code"
          name="code"
          label="Code from the app"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          error={fieldErrors.code}
          className="w-44 [&_input]:font-mono"
        />
        <Button type="submit" variant="secondary" pending={pending} className={fieldErrors.code ? "mb-7" : undefined}>
          Make new recovery codes
        </Button>
      </div>
    </form>
  );
}
