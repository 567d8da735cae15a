"use client";

import { useState } from "react";
import Link from "next/link";
import { CircleCheck, Circle, X } from "lucide-react";
import { dismissChecklistAction } from "@/lib/actions/onboarding/dismiss-checklist";
import type { Checklist } from "@/lib/onboarding/checklist";
import { useActionForm } from "@/components/forms/use-action-form";
import { buttonClasses } from "@/components/ui/button";

/**
 * The first-run checklist above the webhook groups listing: one compact card (two columns of
 * steps on a phone, one row on a desktop), each step a link to where it is done, ticked from the
 * database. Dismissable at any time; once every step is done it shrinks to one "All set" line.
 */
export function FirstRunChecklist({ checklist }: { checklist: Checklist }) {
  const { steps, doneCount, allDone } = checklist;
  const [dismissed, setDismissed] = useState(false);
  // Hidden as soon as the server has recorded it; the page's re-render then leaves it out.
  if (dismissed) return null;
  return (
    <section aria-labelledby="first-run-heading" className="mb-4 rounded-xl border border-brand-100 bg-brand-50/60 p-3 sm:p-4" data-testid="first-run-checklist">
      <div className="flex items-center justify-between gap-2">
        <h2 id="first-run-heading" className="text-sm font-semibold text-slate-900">
          {allDone ? "All set" : "Get started"}{" "}
          <span className="font-normal text-slate-600" data-testid="first-run-progress">
            · {doneCount} of {steps.length} done
          </span>
        </h2>
        <DismissChecklistButton allDone={allDone} onDismissed={() => setDismissed(true)} />
      </div>
      {allDone ? (
        <p className="mt-1 text-sm text-slate-700" data-testid="first-run-all-set">
          Your account is connected, your views are saved and your team is on its way. You can dismiss this.
        </p>
      ) : (
        <ol className="mt-2 grid grid-cols-2 gap-2 lg:grid-cols-4">
          {steps.map((step, index) => (
            <li key={step.key}>
              <Link
                href={step.href}
                prefetch={false}
                className="flex h-full items-start gap-2 rounded-lg border border-slate-200 bg-white px-2.5 py-2 hover:border-brand-500 hover:bg-white"
                data-testid={`first-run-step-${step.key}`}
                data-done={step.done ? "true" : "false"}
              >
                {step.done ? (
                  <CircleCheck aria-hidden className="mt-0.5 size-4 shrink-0 text-emerald-600" />
                ) : (
                  <Circle aria-hidden className="mt-0.5 size-4 shrink-0 text-slate-400" />
                )}
                <span className="min-w-0">
                  <span className={`block text-sm font-medium ${step.done ? "text-slate-500 line-through decoration-slate-300" : "text-slate-900"}`}>
                    <span className="sr-only">Step {index + 1}: </span>
                    {step.label}
                    <span className="sr-only">{step.done ? " (done)" : " (to do)"}</span>
                  </span>
                  <span className="hidden text-xs text-slate-500 sm:block">{step.hint}</span>
                </span>
              </Link>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** A form, so dismissing also works before JavaScript has loaded. */
function DismissChecklistButton({ allDone, onDismissed }: { allDone: boolean; onDismissed: () => void }) {
  const { state, pending, formProps } = useActionForm(dismissChecklistAction, { onSuccess: onDismissed });
  return (
    <form {...formProps} className="flex items-center gap-2" aria-label="Dismiss the checklist">
      {state.status === "error" ? (
        <span role="alert" className="text-xs text-red-700">
          {state.message ?? "Could not dismiss the checklist."}
        </span>
      ) : null}
      <button
        type="submit"
        disabled={pending}
        className={allDone ? buttonClasses("secondary", { size: "xs" }) : "grid size-8 place-items-center rounded-md text-slate-500 hover:bg-white hover:text-slate-800"}
        aria-label={allDone ? undefined : "Dismiss the checklist"}
        title="Dismiss the checklist"
        data-testid="first-run-dismiss"
      >
        {allDone ? "Dismiss" : <X aria-hidden className="size-4" />}
      </button>
    </form>
  );
}
