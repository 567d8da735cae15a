"use client";

import { lazy, Suspense, useCallback, useRef, useState } from "react";
import { useModalDialog } from "@/components/ui/use-modal-dialog";
import type { ReauthProof } from "@/lib/forms/action-state";
import { ReauthContext, type RequestReauth } from "./reauth-context";

// The dialog's form (its action, fields and form hook) loads when a change first asks for it: it is
// in the frame of every signed-in page, and most page views never open it (issue 38).
const ReauthForm = lazy(() => import("./reauth-form").then((module) => ({ default: module.ReauthForm })));

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
            <Suspense fallback={<p className="p-6 text-sm text-slate-600">Loading…</p>}>
              <ReauthForm key={round} twoFactor={twoFactor} proof={proof} onConfirmed={() => settle(true)} onCancel={() => settle(false)} />
            </Suspense>
          </ReauthContext.Provider>
        ) : null}
      </dialog>
    </ReauthContext.Provider>
  );
}
