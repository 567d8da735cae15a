"use client";

import { draftGroupBackToAction } from "@/lib/actions/plans/draft-group-back-to";
import { FormMessage } from "@/components/forms/form-message";
import { useActionForm } from "@/components/forms/use-action-form";
import { buttonClasses } from "@/components/ui/button";

/**
 * "Put it back as it was…" on a group's past: drafts the plan that makes the group and its webhooks
 * what they were then (nothing changes before review; the plan page shows every step first).
 */
export function GroupBackToButton({ groupId, at }: { groupId: number; at: string }) {
  const { state, pending, formProps } = useActionForm(draftGroupBackToAction);
  return (
    <form {...formProps} className="space-y-2">
      <input type="hidden" name="groupId" value={groupId} />
      <input type="hidden" name="at" value={at} />
      <button type="submit" disabled={pending} className={buttonClasses("secondary", { size: "sm" })} data-testid="group-back-to">
        {pending ? "Drafting the plan…" : "Put it back as it was…"}
      </button>
      <FormMessage state={state} testId="group-back-to" />
    </form>
  );
}
