"use client";

import { useCallback, useRef, useState } from "react";
import { useModalDialog } from "@/components/ui/use-modal-dialog";
import { reauthenticateAction } from "@/lib/actions/auth/reauthenticate";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import type { ReauthProof } from "@/lib/forms/action-state";
import { ReauthContext, type RequestReauth } from "./reauth-context";

/**
 * One dialog for the whole portal. A sensitive action answered `reauthRequired` (lib/actions/pipeline.ts):
 * the form hook calls `requestReauth(proof)`, the person confirms, and the hook sends the same
 * submission again; what they typed in the form stays as it was. What the dialog asks for:
 * - proof "any": the password, or with two-factor a code;
 * - proof "password" (a change to who controls the account): the password, and with two-factor a code too.
 */
export function ReauthProvider({ twoFactor, children }: { twoFactor: boolean; children: React.ReactNode }) {
  const resolver = useRef<((confirmed: boolean) => void) | null>(null);
  const [round, setRound] = useState(0);
  const [open, setOpen] = useState(false);
  const dialog = useModalDialog(open);
  const [proof, setProof] = useState<ReauthProof>("any");

  const requestReauth = useCallback<RequestReauth>(
    (asked = "any") =>
      new Promise<boolean>((resolve) => {
        resolver.current?.(false);
        resolver.current = resolve;
        setProof(asked);
        setRound((n) => n + 1);
        setOpen(true);
      }),
    [],
  );

  const settle = useCallback((confirmed: boolean) => {
    resolver.current?.(confirmed);
    resolver.current = null;
    setOpen(false);
  }, []);

  return (
    <ReauthContext.Provider value={requestReauth}>
      {children}
      <dialog
        ref={dialog}
        aria-labelledby="reauth-heading"
        onClose={() => settle(false)}
        className="m-auto w-[calc(100%-2rem)] max-w-md rounded-xl border border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
        data-testid="reauth-dialog"
      >
        {open ? (
          // The dialog's own form must not open the dialog again: a refusal shows in it instead.
          <ReauthContext.Provider value={null}>
            <ReauthForm key={round} twoFactor={twoFactor} proof={proof} onConfirmed={() => settle(true)} onCancel={() => settle(false)} />
          </ReauthContext.Provider>
        ) : null}
      </dialog>
    </ReauthContext.Provider>
  );
}

function ReauthForm({ twoFactor, proof, onConfirmed, onCancel }: { twoFactor: boolean; proof: ReauthProof; onConfirmed: () => void; onCancel: () => void }) {
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
