"use client";

import { useState } from "react";
import { endSessionAction } from "@/lib/actions/auth/end-session";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/forms/form-message";
import { useActionForm } from "@/components/forms/use-action-form";

/** "End session…", then a confirmation naming the browser; that browser is signed out at its next request. */
export function EndSessionForm({ sessionId, label }: { sessionId: string; label: string }) {
  const { state, pending, formProps } = useActionForm(endSessionAction);
  const [confirming, setConfirming] = useState(false);
  return (
    <form {...formProps} className="flex flex-wrap items-center justify-end gap-2" aria-label={`End session: ${label}`}>
      <input type="hidden" name="sessionId" value={sessionId} />
      {confirming ? (
        <>
          <span className="min-w-0 flex-[1_1_12rem] text-sm text-slate-700">End this session? That browser will be signed out.</span>
          <Button type="submit" variant="danger" className="px-3 py-1.5" pending={pending}>
            Yes, end session
          </Button>
          <Button type="button" variant="ghost" className="px-3 py-1.5" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
        </>
      ) : (
        <Button type="button" variant="secondary" className="px-3 py-1.5" onClick={() => setConfirming(true)}>
          End session…
        </Button>
      )}
      {state.status === "error" ? (
        <div className="w-full">
          <FormMessage state={state} testId={`end-session-${sessionId}`} />
        </div>
      ) : null}
    </form>
  );
}
