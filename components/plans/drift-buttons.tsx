"use client";

import { acceptDriftAction } from "@/lib/actions/plans/accept-drift";
import { reapplyDriftAction } from "@/lib/actions/plans/reapply-drift";
import { useActionForm } from "@/components/forms/use-action-form";
import { buttonClasses } from "@/components/ui/button";

/**
 * A drift finding's two answers (issue 37 §3): Re-apply drafts a plan that sets the applied plan's
 * values again (shown at once, reviewed like any plan); Accept keeps the record as it is in the EMS
 * and mutes the finding. Neither sends anything to the EMS.
 */
function DriftButton({ action, findingId, label, busy, testId }: { action: typeof acceptDriftAction; findingId: string; label: string; busy: string; testId: string }) {
  const { state, pending, formProps } = useActionForm(action);
  return (
    <form {...formProps} className="inline-flex flex-wrap items-center gap-2">
      <input type="hidden" name="findingId" value={findingId} />
      <button type="submit" disabled={pending} className={buttonClasses("secondary", { size: "xs" })} data-testid={testId}>
        {pending ? busy : label}
      </button>
      {state.status === "error" && (state.message ?? state.fieldErrors?.findingId) ? (
        <span role="alert" className="text-sm text-red-700" data-testid={`${testId}-error`}>
          {state.message ?? state.fieldErrors?.findingId}
        </span>
      ) : null}
    </form>
  );
}

export function ReapplyDriftButton({ findingId }: { findingId: string }) {
  return <DriftButton action={reapplyDriftAction} findingId={findingId} label="Re-apply…" busy="Drafting…" testId="drift-reapply" />;
}

export function AcceptDriftButton({ findingId }: { findingId: string }) {
  return <DriftButton action={acceptDriftAction} findingId={findingId} label="Accept" busy="Accepting…" testId="drift-accept" />;
}
