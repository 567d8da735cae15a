"use client";

import { setPlanReviewAction } from "@/lib/actions/plans/set-plan-review";
import { buttonClasses } from "@/components/ui/button";
import { FormMessage } from "@/components/forms/form-message";
import { useActionForm } from "@/components/forms/use-action-form";

/**
 * Owners choose whether a change plan needs a second owner's or admin's approval. "Default" follows
 * the team: on once it has two or more owners and admins (lib/plans/review.ts).
 */
export function PlanReviewSetting({ setting, effective }: { setting: boolean | null; effective: boolean }) {
  const { state, pending, formProps } = useActionForm(setPlanReviewAction);
  const current = setting === null ? "default" : setting ? "on" : "off";
  return (
    <form {...formProps} className="space-y-3" aria-labelledby="plan-review-heading" data-testid="plan-review-setting">
      <h2 id="plan-review-heading" className="text-lg font-semibold">
        Change plans
      </h2>
      <p className="text-sm text-slate-600">
        Every change to the EMS is a plan. Now:{" "}
        {effective ? "a plan needs the approval of an owner or admin other than its author." : "an owner or admin may approve their own plans."}
      </p>
      <fieldset className="space-y-1 text-sm">
        <legend className="sr-only">Review</legend>
        <label className="flex items-center gap-2">
          <input type="radio" name="review" value="default" defaultChecked={current === "default"} /> Default: required once the team has two or more owners and admins
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name="review" value="on" defaultChecked={current === "on"} /> Always require a second person
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name="review" value="off" defaultChecked={current === "off"} /> Owners and admins may approve their own plans
        </label>
      </fieldset>
      <button type="submit" disabled={pending} className={buttonClasses("secondary", { size: "sm" })}>
        {pending ? "Saving…" : "Save"}
      </button>
      <FormMessage state={state} testId="plan-review-setting" />
    </form>
  );
}
