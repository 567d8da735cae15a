"use client";

import { useId, useState } from "react";
import { muteFindingAction } from "@/lib/actions/health/mute-finding";
import { unmuteFindingAction } from "@/lib/actions/health/unmute-finding";
import { useActionForm } from "@/components/forms/use-action-form";
import { buttonClasses } from "@/components/ui/button";

/**
 * "Mute…": opens a short form asking why (the reason is stored, listed and audited). `findingKey`
 * empty mutes the whole check. Shown to owners and admins; the action checks the role again.
 * The form is drawn only once opened: a page of fifty findings carries fifty summaries, not fifty forms.
 */
export function MuteForm({ ruleId, findingKey, label, className = "" }: { ruleId: string; findingKey: string; label: string; className?: string }) {
  const { state, pending, fieldErrors, formProps } = useActionForm(muteFindingAction);
  const [open, setOpen] = useState(false);
  const id = useId();
  const error = fieldErrors.reason ?? (state.status === "error" ? (state.message ?? Object.values(fieldErrors)[0]) : undefined);
  return (
    <details className={`group text-sm ${className}`} data-testid="mute" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="mute-summary">{label}</summary>
      {open ? (
        <form {...formProps} className="mt-2 flex max-w-md flex-col gap-2" aria-label={label} aria-busy={pending || undefined}>
          <input type="hidden" name="ruleId" value={ruleId} />
          <input type="hidden" name="findingKey" value={findingKey} />
          <label htmlFor={`${id}-reason`} className="font-medium text-slate-700">
            Why? <span className="font-normal text-slate-500">(the team sees it)</span>
          </label>
          <textarea
            id={`${id}-reason`}
            name="reason"
            rows={2}
            maxLength={500}
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            className="w-full rounded-md border border-slate-300 px-2 py-1.5 text-sm"
            placeholder="e.g. Staging group, deliveries are not needed"
          />
          {error ? (
            <p id={`${id}-error`} role="alert" className="text-red-700">
              {error}
            </p>
          ) : null}
          <div>
            <button type="submit" disabled={pending} className={buttonClasses("secondary", { size: "sm" })}>
              {pending ? "Muting…" : "Mute"}
            </button>
          </div>
        </form>
      ) : null}
    </details>
  );
}

/** "Unmute": shows the finding (or check) again. */
export function UnmuteButton({ muteId }: { muteId: string }) {
  const { state, pending, formProps } = useActionForm(unmuteFindingAction);
  return (
    <form {...formProps} className="inline-flex items-center gap-2" aria-label="Unmute">
      <input type="hidden" name="muteId" value={muteId} />
      <button type="submit" disabled={pending} className={buttonClasses("ghost", { size: "xs", className: "underline" })}>
        {pending ? "Unmuting…" : "Unmute"}
      </button>
      {state.status === "error" && state.message ? (
        <span role="alert" className="text-sm text-red-700">
          {state.message}
        </span>
      ) : null}
    </form>
  );
}
