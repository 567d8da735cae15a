"use client";

import { useState } from "react";
import { stopTrackingAction } from "@/lib/actions/history/stop-tracking";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/forms/form-message";
import { useActionForm } from "@/components/forms/use-action-form";

/** Stopping deletes the history, so it asks once more, inline (and the action asks for the password if it is not recent). */
export function StopTrackingForm({ trackerId, accountLabel }: { trackerId: string; accountLabel: string }) {
  const { state, pending, formProps } = useActionForm(stopTrackingAction);
  const [confirming, setConfirming] = useState(false);
  return (
    <form {...formProps} className="space-y-3" aria-label={`Stop tracking ${accountLabel}`}>
      <input type="hidden" name="trackerId" value={trackerId} />
      <FormMessage state={state} testId="stop-tracking" />
      {confirming ? (
        <div className="flex flex-wrap items-center gap-3" role="group" aria-labelledby={`stop-${trackerId}-question`}>
          <p id={`stop-${trackerId}-question`} className="text-sm text-slate-700">
            Stop tracking and delete every change recorded for this account? This cannot be undone.
          </p>
          <Button type="submit" variant="danger" pending={pending}>
            Yes, stop and delete history
          </Button>
          <Button type="button" variant="ghost" onClick={() => setConfirming(false)} autoFocus>
            Cancel
          </Button>
        </div>
      ) : (
        <Button type="button" variant="secondary" onClick={() => setConfirming(true)}>
          Stop tracking…
        </Button>
      )}
    </form>
  );
}
