"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { reauthenticateAction } from "@/lib/actions/auth/reauthenticate";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { ReauthContext, type RequestReauth } from "./reauth-context";


/**
 * One dialog for the whole portal. A sensitive action answered `reauthRequired` (lib/actions/pipeline.ts):
 * the form hook calls `requestReauth()`, the person confirms with their password (or, with two-factor,
 * a code), and the hook sends the same submission again; what they typed in the form stays as it was.
 */
export function ReauthProvider({ method, children }: { method: "password" | "code"; children: React.ReactNode }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const resolver = useRef<((confirmed: boolean) => void) | null>(null);
  const [round, setRound] = useState(0);
  const [open, setOpen] = useState(false);

  const requestReauth = useCallback<RequestReauth>(
    () =>
      new Promise<boolean>((resolve) => {
        resolver.current?.(false);
        resolver.current = resolve;
        setRound((n) => n + 1);
        setOpen(true);
      }),
    [],
  );

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

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
        {open ? <ReauthForm key={round} method={method} onConfirmed={() => settle(true)} onCancel={() => settle(false)} /> : null}
      </dialog>
    </ReauthContext.Provider>
  );
}

function ReauthForm({ method, onConfirmed, onCancel }: { method: "password" | "code"; onConfirmed: () => void; onCancel: () => void }) {
  const { state, pending, fieldErrors, formProps } = useActionForm(reauthenticateAction, { onSuccess: () => onConfirmed() });
  return (
    <form {...formProps} className="space-y-4 p-6" noValidate>
      <div>
        <h2 id="reauth-heading" className="text-lg font-semibold">
          Confirm it&apos;s you
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          This change needs a recent sign-in.{" "}
          {method === "code" ? "Enter the 6-digit code from your authenticator app." : "Enter your password."} Then your change goes through as you left it.
        </p>
      </div>
      {state.status === "error" && state.message ? <Notice tone="error">{state.message}</Notice> : null}
      {method === "code" ? (
        <Field
          name="code"
          label="Authentication code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          placeholder="123456"
          autoFocus
          error={fieldErrors.code}
          className="[&_input]:font-mono [&_input]:tracking-[0.3em]"
        />
      ) : (
        <Field name="password" label="Your password" type="password" autoComplete="current-password" autoFocus error={fieldErrors.password} />
      )}
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
