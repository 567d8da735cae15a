"use client";

import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { reauthenticateAction } from "@/lib/actions/auth/reauthenticate";
import type { ReauthProof } from "@/lib/forms/action-state";

/** The "confirm it's you" form of the portal's one dialog (./reauth-provider.tsx), loaded when first asked for. */
export function ReauthForm({ twoFactor, proof, onConfirmed, onCancel }: { twoFactor: boolean; proof: ReauthProof; onConfirmed: () => void; onCancel: () => void }) {
  const { state, pending, fieldErrors, formProps } = useActionForm(reauthenticateAction, { onSuccess: () => onConfirmed() });
  // The server may ask for the password after all (a factor set up since this session's last password).
  const askPassword = !twoFactor || proof === "password" || (state.status === "error" && state.reauthRequired === "password");
  const askCode = twoFactor;
  const what =
    askPassword && askCode
      ? "your password and the 6-digit code from your authenticator app"
      : askCode
        ? "the 6-digit code from your authenticator app"
        : "your password";
  return (
    <form {...formProps} className="space-y-4 p-6" noValidate>
      <div>
        <h2 id="reauth-heading" className="text-lg font-semibold">
          Confirm it&apos;s you
        </h2>
        <p className="mt-1 text-sm text-slate-600" data-testid="reauth-explanation">
          {proof === "password" ? "This change affects who controls your account" : "This change needs a recent sign-in"}: enter {what}. Then your change goes through as
          you left it.
        </p>
      </div>
      {state.status === "error" && state.message ? <Notice tone="error">{state.message}</Notice> : null}
      {askPassword ? <Field name="password" label="Your password" type="password" autoComplete="current-password" autoFocus error={fieldErrors.password} /> : null}
      {askCode ? (
        <Field
          name="code"
          label="Authentication code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          placeholder="123456"
          autoFocus={!askPassword}
          error={fieldErrors.code}
          className="[&_input]:font-mono [&_input]:tracking-[0.3em]"
        />
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" pending={pending}>
          Confirm
        </Button>
      </div>
    </form>
  );
}
