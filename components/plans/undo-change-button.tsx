"use client";

import { draftUndoChangeAction } from "@/lib/actions/plans/draft-undo-change";
import { FormMessage } from "@/components/forms/form-message";
import { useActionForm } from "@/components/forms/use-action-form";

/** "Undo…" of one change of the feed: drafts the plan that puts it back (nothing changes before review). */
export function UndoChangeButton({ changeId }: { changeId: string }) {
  const { state, pending, formProps } = useActionForm(draftUndoChangeAction);
  return (
    <form {...formProps} className="inline">
      <input type="hidden" name="changeId" value={changeId} />
      <button type="submit" disabled={pending} className="text-brand-700 underline-offset-2 hover:underline disabled:opacity-60" data-testid="change-undo">
        {pending ? "drafting…" : "undo…"}
      </button>
      <FormMessage state={state} testId="change-undo" />
    </form>
  );
}
