import { NOTHING } from "@/lib/plans/diff";
import type { PlanStep } from "@/lib/plans/page";
import { StepStatePill } from "./plan-status";

const VERB_TONE = { create: "bg-emerald-600", update: "bg-sky-600", delete: "bg-red-600" } as const;

/**
 * One operation of a plan: its sentence, then each changed field before → after, side by side from
 * 640 px and stacked below. Values are words from lib/plans/diff.ts: a header is a name, never a value.
 */
export function OperationDiff({ step, showState }: { step: PlanStep; showState: boolean }) {
  const { diff } = step;
  const href = diff.recordId ? (diff.resource === "webhooks" ? `/webhooks/${diff.recordId}` : `/webhook-groups/${diff.recordId}`) : null;
  return (
    <li className="scroll-mt-16 rounded-lg border border-slate-200 bg-white" data-testid="plan-operation" id={`step-${step.position + 1}`}>
      <div className="flex flex-wrap items-start gap-x-3 gap-y-1 px-3 py-2">
        <span aria-hidden className={`mt-1.5 size-2 shrink-0 rounded-full ${VERB_TONE[diff.verb]}`} />
        <p className="min-w-0 flex-1 text-sm font-medium break-words text-slate-900">
          <span className="mr-1 text-slate-500 tabular-nums">{step.position + 1}.</span>
          {href ? (
            <a href={href} className="hover:underline">
              {diff.sentence}
            </a>
          ) : (
            diff.sentence
          )}
        </p>
        {showState ? <StepStatePill state={step.state} /> : null}
      </div>
      {diff.warnings.length > 0 ? (
        <ul className="space-y-1 border-t border-amber-100 bg-amber-50 px-3 py-2 text-sm break-words text-amber-900" data-testid="step-warnings">
          {diff.warnings.map((warning) => (
            <li key={warning}>
              <span aria-hidden className="mr-1">
                ⚠
              </span>
              {warning}
            </li>
          ))}
        </ul>
      ) : null}
      {step.message ? (
        <p
          className={`border-t px-3 py-2 text-sm ${step.state === "failed" ? "border-red-100 bg-red-50 text-red-800" : "border-amber-100 bg-amber-50 text-amber-900"}`}
          data-testid="step-message"
        >
          {step.message}
        </p>
      ) : null}
      {diff.fields.length > 0 ? (
        <dl className="divide-y divide-slate-100 border-t border-slate-100 text-sm">
          {diff.fields.map((field) => (
            <div key={field.field} className="grid grid-cols-1 gap-1 px-3 py-1.5 sm:grid-cols-[10rem_minmax(0,1fr)_minmax(0,1fr)] sm:gap-3">
              <dt className="font-medium text-slate-600">{field.label}</dt>
              <dd className="min-w-0 break-words text-slate-500">
                <span className="sr-only">Before: </span>
                {field.before === null ? (
                  <span className="italic">new</span>
                ) : field.before === NOTHING ? (
                  <span className="italic">{NOTHING}</span>
                ) : (
                  <del className="decoration-red-400">{field.before}</del>
                )}
              </dd>
              <dd className="min-w-0 break-words text-slate-900">
                <span className="sr-only">After: </span>
                <span aria-hidden className="mr-1 text-slate-400 sm:hidden">
                  →
                </span>
                <ins className="bg-emerald-50 no-underline">{field.after ?? "none"}</ins>
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
    </li>
  );
}
