"use client";

import { draftWebhookDeleteAction } from "@/lib/actions/plans/draft-webhook-delete";
import { draftWebhookDuplicateAction } from "@/lib/actions/plans/draft-webhook-duplicate";
import { buttonClasses } from "@/components/ui/button";
import { FormMessage } from "@/components/forms/form-message";
import { LatestMessageScope } from "@/components/forms/latest-message";
import { useActionForm } from "@/components/forms/use-action-form";
import { GroupOptions } from "./group-options";

const selectClass = "block w-full min-w-0 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm sm:w-72";

function DuplicateForm({ id, groups }: { id: number; groups: { id: number; name: string }[] }) {
  const { state, pending, formProps } = useActionForm(draftWebhookDuplicateAction);
  return (
    <form {...formProps} className="flex flex-wrap items-end gap-2" aria-label="Duplicate into another group">
      <input type="hidden" name="id" value={id} />
      <div>
        <label htmlFor="duplicate-group" className="block text-sm font-medium text-slate-700">
          Duplicate into
        </label>
        <select id="duplicate-group" name="group_id" className={selectClass} defaultValue={groups[0]?.id ?? ""}>
          <GroupOptions groups={groups} />
        </select>
      </div>
      <button type="submit" disabled={pending} className={buttonClasses("secondary", { size: "sm" })} data-testid="webhook-duplicate">
        {pending ? "Drafting…" : "Draft a copy"}
      </button>
      <div className="w-full">
        <FormMessage state={state} testId="webhook-duplicate" />
      </div>
    </form>
  );
}

function DeleteForm({ id }: { id: number }) {
  const { state, pending, formProps } = useActionForm(draftWebhookDeleteAction);
  return (
    <form {...formProps} className="space-y-2" aria-label="Delete this webhook">
      <input type="hidden" name="id" value={id} />
      <button type="submit" disabled={pending} className={buttonClasses("ghost-danger", { size: "sm" })} data-testid="webhook-delete">
        {pending ? "Drafting…" : "Draft its deletion"}
      </button>
      <FormMessage state={state} testId="webhook-delete" />
    </form>
  );
}

/** Copy or delete a webhook, each as a plan of its own (nothing happens in the EMS before review). */
export function WebhookMoreForms({ id, groups }: { id: number; groups: { id: number; name: string }[] }) {
  return (
    <LatestMessageScope>
      <section aria-labelledby="more-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="more-heading" className="text-sm font-semibold text-slate-900">
          Copy or delete
        </h2>
        <DuplicateForm id={id} groups={groups} />
        <DeleteForm id={id} />
      </section>
    </LatestMessageScope>
  );
}
