"use client";

import { draftReplanAction } from "@/lib/actions/plans/draft-replan";
import { draftUndoAction } from "@/lib/actions/plans/draft-undo";
import { applyPlanAction } from "@/lib/actions/plans/apply-plan";
import { applyUndoAction } from "@/lib/actions/plans/apply-undo";
import { approvePlanAction } from "@/lib/actions/plans/approve-plan";
import { approveAndApplyPlanAction } from "@/lib/actions/plans/approve-and-apply-plan";
import { cancelPlanAction } from "@/lib/actions/plans/cancel-plan";
import { rejectPlanAction } from "@/lib/actions/plans/reject-plan";
import { submitPlanAction } from "@/lib/actions/plans/submit-plan";
import type { FormAction } from "@/lib/forms/action-state";
import { buttonClasses } from "@/components/ui/button";
import { ConfirmSubmit } from "@/components/ui/confirm-submit";
import { FormMessage } from "@/components/forms/form-message";
import { LatestMessageScope } from "@/components/forms/latest-message";
import { useActionForm } from "@/components/forms/use-action-form";
import type { PlanButtons } from "@/lib/plans/page";
import { plural } from "@/lib/text/plural";

type Can = PlanButtons;

function ActionButton({
  planId,
  action,
  label,
  pendingLabel,
  variant = "secondary",
  testId,
}: {
  planId: string;
  action: FormAction;
  label: string;
  pendingLabel: string;
  variant?: "primary" | "secondary" | "ghost-danger";
  testId: string;
}) {
  const { state, pending, formProps } = useActionForm(action);
  return (
    <form {...formProps} className="contents">
      <input type="hidden" name="planId" value={planId} />
      <button type="submit" disabled={pending} className={buttonClasses(variant, { size: "sm" })} data-testid={testId}>
        {pending ? pendingLabel : label}
      </button>
      <FormMessage state={state} testId={testId} />
    </form>
  );
}

function ApplyButton({ planId, operations, credits, duration }: { planId: string; operations: number; credits: number; duration: string }) {
  const { state, pending, formProps } = useActionForm(applyPlanAction);
  return (
    <form {...formProps} className="contents">
      <input type="hidden" name="planId" value={planId} />
      <ConfirmSubmit
        trigger={pending ? "Starting…" : "Apply to the EMS"}
        title="Apply this plan to the EMS?"
        description={`${plural(operations, "change")} will be sent with your API credentials (${credits.toLocaleString("en-US")} credits, ${duration}). Each record is read first; one changed since the plan was made stops as a conflict.`}
        confirmLabel="Apply now"
        pending={pending}
        triggerClassName={buttonClasses("primary", { size: "sm" })}
        testId="plan-apply"
      />
      <FormMessage state={state} testId="plan-apply" />
    </form>
  );
}

/** An undo of a plan applied in the last 24 hours, applied at once by an owner or admin (no second approval). */
function ApplyUndoButton({ planId, operations }: { planId: string; operations: number }) {
  const { state, pending, formProps } = useActionForm(applyUndoAction);
  return (
    <form {...formProps} className="contents">
      <input type="hidden" name="planId" value={planId} />
      <ConfirmSubmit
        trigger={pending ? "Starting…" : "Apply undo now"}
        title="Apply this undo without a second approval?"
        description={`It puts back ${plural(operations, "change")} of a plan applied in the last 24 hours, as the records were before it. It is recorded in the audit log and every owner is told.`}
        confirmLabel="Undo now"
        pending={pending}
        triggerClassName={buttonClasses("primary", { size: "sm" })}
        testId="plan-apply-undo"
      />
      <FormMessage state={state} testId="plan-apply-undo" />
    </form>
  );
}

/** A drafted fix: approve and apply in one step (the password asked once if it is not recent). */
function ApproveAndApplyButton({ planId, operations, credits, duration }: { planId: string; operations: number; credits: number; duration: string }) {
  const { state, pending, formProps } = useActionForm(approveAndApplyPlanAction);
  return (
    <form {...formProps} className="contents">
      <input type="hidden" name="planId" value={planId} />
      <ConfirmSubmit
        trigger={pending ? "Starting…" : "Approve and apply"}
        title="Approve this fix and apply it to the EMS?"
        description={`You approve it as its reviewer, and ${plural(operations, "change")} are sent with your API credentials at once (${credits.toLocaleString("en-US")} credits, ${duration}). Each record is read first; one changed since the fix was drafted stops as a conflict.`}
        confirmLabel="Approve and apply now"
        pending={pending}
        triggerClassName={buttonClasses("primary", { size: "sm" })}
        testId="plan-approve-apply"
      />
      <FormMessage state={state} testId="plan-approve-apply" />
    </form>
  );
}

function RejectForm({ planId }: { planId: string }) {
  const { state, pending, fieldErrors, formProps } = useActionForm(rejectPlanAction);
  return (
    <details className="w-full">
      <summary className={`${buttonClasses("ghost-danger", { size: "sm" })} cursor-pointer list-none [&::-webkit-details-marker]:hidden`}>Reject…</summary>
      <form {...formProps} className="mt-2 max-w-lg space-y-2" aria-label="Reject this plan">
        <input type="hidden" name="planId" value={planId} />
        <label htmlFor="reject-reason" className="block text-sm font-medium text-slate-700">
          Why? The author sees this.
        </label>
        <textarea
          id="reject-reason"
          name="reason"
          rows={2}
          maxLength={500}
          required
          aria-invalid={fieldErrors.reason ? true : undefined}
          className="block w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
        />
        {fieldErrors.reason ? <p className="text-sm text-red-700">{fieldErrors.reason}</p> : null}
        <button type="submit" disabled={pending} className={buttonClasses("danger", { size: "sm" })} data-testid="plan-reject">
          {pending ? "Rejecting…" : "Reject the plan"}
        </button>
        <FormMessage state={state} testId="plan-reject" />
      </form>
    </details>
  );
}

/** What this person may do with the plan now (lib/plans/page.ts `can`; the actions check again). */
export function PlanControls({ planId, can, operations, credits, duration }: { planId: string; can: Can; operations: number; credits: number; duration: string }) {
  if (!Object.values(can).some(Boolean)) return null;
  return (
    <LatestMessageScope>
      <div className="flex flex-wrap items-center gap-2" data-testid="plan-controls">
        {can.submit ? (
          <ActionButton planId={planId} action={submitPlanAction} label="Send for review" pendingLabel="Sending…" variant="primary" testId="plan-submit" />
        ) : null}
        {can.approveAndApply ? <ApproveAndApplyButton planId={planId} operations={operations} credits={credits} duration={duration} /> : null}
        {can.approve ? (
          <ActionButton
            planId={planId}
            action={approvePlanAction}
            label={can.approveAndApply ? "Approve only" : "Approve"}
            pendingLabel="Approving…"
            variant={can.approveAndApply ? "secondary" : "primary"}
            testId="plan-approve"
          />
        ) : null}
        {can.apply ? <ApplyButton planId={planId} operations={operations} credits={credits} duration={duration} /> : null}
        {can.applyUndo ? <ApplyUndoButton planId={planId} operations={operations} /> : null}
        {can.replan ? <ActionButton planId={planId} action={draftReplanAction} label="Plan the rest again" pendingLabel="Drafting…" testId="plan-replan" /> : null}
        {can.undo ? <ActionButton planId={planId} action={draftUndoAction} label="Undo this plan…" pendingLabel="Drafting…" testId="plan-undo" /> : null}
        {can.cancel ? (
          <ActionButton planId={planId} action={cancelPlanAction} label="Cancel plan" pendingLabel="Cancelling…" variant="ghost-danger" testId="plan-cancel" />
        ) : null}
        {can.reject ? <RejectForm planId={planId} /> : null}
      </div>
    </LatestMessageScope>
  );
}
