import type { PlanShownStatus } from "@/lib/plans/lifecycle";
import type { StepState } from "@/lib/plans/steps";

const PLAN_STATUS: Record<PlanShownStatus, { label: string; tone: string }> = {
  draft: { label: "Draft", tone: "bg-slate-100 text-slate-700 ring-slate-200" },
  submitted: { label: "Waiting for review", tone: "bg-amber-50 text-amber-900 ring-amber-200" },
  approved: { label: "Approved", tone: "bg-sky-50 text-sky-800 ring-sky-200" },
  rejected: { label: "Rejected", tone: "bg-red-50 text-red-800 ring-red-200" },
  applying: { label: "Applying", tone: "bg-brand-50 text-brand-700 ring-brand-200" },
  applied: { label: "Applied", tone: "bg-emerald-50 text-emerald-800 ring-emerald-200" },
  failed: { label: "Stopped: a step failed", tone: "bg-red-50 text-red-800 ring-red-200" },
  conflict: { label: "Stopped: conflict", tone: "bg-amber-50 text-amber-900 ring-amber-200" },
  cancelled: { label: "Cancelled", tone: "bg-slate-100 text-slate-600 ring-slate-200" },
  undone: { label: "Undone", tone: "bg-violet-50 text-violet-800 ring-violet-200" },
};

const STEP_STATE: Record<StepState, { label: string; tone: string }> = {
  pending: { label: "To do", tone: "bg-slate-100 text-slate-700 ring-slate-200" },
  running: { label: "Sending", tone: "bg-brand-50 text-brand-700 ring-brand-200" },
  applied: { label: "Done", tone: "bg-emerald-50 text-emerald-800 ring-emerald-200" },
  failed: { label: "Failed", tone: "bg-red-50 text-red-800 ring-red-200" },
  conflict: { label: "Conflict", tone: "bg-amber-50 text-amber-900 ring-amber-200" },
  skipped: { label: "Skipped", tone: "bg-slate-100 text-slate-600 ring-slate-200" },
};

const PILL = "inline-flex shrink-0 items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset";

export function PlanStatusPill({ status }: { status: PlanShownStatus }) {
  const { label, tone } = PLAN_STATUS[status] ?? PLAN_STATUS.draft;
  return (
    <span className={`${PILL} ${tone}`} data-testid="plan-status">
      {label}
    </span>
  );
}

export function StepStatePill({ state }: { state: StepState }) {
  const { label, tone } = STEP_STATE[state] ?? STEP_STATE.pending;
  return (
    <span className={`${PILL} ${tone}`} data-testid="step-state">
      {label}
    </span>
  );
}

export const planStatusLabel = (status: PlanShownStatus) => (PLAN_STATUS[status] ?? PLAN_STATUS.draft).label;
