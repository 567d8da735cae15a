"use client";

import { setCheckPolicyAction } from "@/lib/actions/health/set-check-policy";
import type { CheckPolicy } from "@/lib/health/policies";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/forms/form-message";
import { toastSuccess } from "@/components/forms/toast-success";
import { useActionForm } from "@/components/forms/use-action-form";

export const POLICY_CHOICES: readonly { value: CheckPolicy; label: string; hint: string }[] = [
  { value: "off", label: "Off", hint: "hidden for the team, never alerts" },
  { value: "tell", label: "Tell us", hint: "shown in Health, a new finding alerts" },
  { value: "draft", label: "Draft the fix", hint: "after each sync, one plan for its new findings, for review" },
];

/** One check's policy, as owners and admins choose it: three choices and a save. A refused save keeps the choice. */
export function CheckPolicyForm({
  ruleId,
  title,
  policy,
  draftable,
  undraftableNote = "No fix the portal can draft: this check's fix needs a person's judgement.",
}: {
  ruleId: string;
  title: string;
  policy: CheckPolicy;
  draftable: boolean;
  /** Why “Draft the fix” is not offered, for a check that has no fix of its own. */
  undraftableNote?: string;
}) {
  const { state, pending, formProps } = useActionForm(setCheckPolicyAction, { onSuccess: toastSuccess });
  return (
    <form {...formProps} className="space-y-2" aria-label={`What “${title}” does`} data-testid={`check-policy-${ruleId}`}>
      <FormMessage state={state} testId={`check-policy-${ruleId}`} />
      <input type="hidden" name="ruleId" value={ruleId} />
      <fieldset className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <legend className="sr-only">What “{title}” does</legend>
        {POLICY_CHOICES.map((choice) => {
          const disabled = choice.value === "draft" && !draftable;
          return (
            <label key={choice.value} className={`flex items-center gap-1.5 text-sm ${disabled ? "text-slate-400" : "text-slate-800"}`} title={choice.hint}>
              <input type="radio" name="policy" value={choice.value} defaultChecked={policy === choice.value} disabled={disabled} className="size-4" />
              {choice.label}
            </label>
          );
        })}
        <Button type="submit" variant="secondary" size="sm" pending={pending}>
          Save
        </Button>
      </fieldset>
      {draftable ? null : <p className="text-xs text-slate-500">{undraftableNote}</p>}
    </form>
  );
}
