"use client";

import { draftGroupEditAction } from "@/lib/actions/plans/draft";
import { buttonClasses } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/forms/form-message";
import { useActionForm } from "@/components/forms/use-action-form";
import { HeaderEdits } from "./header-edits";

/** A webhook group's name, notification addresses and headers as a draft plan. */
export function GroupEditForm({ defaults }: { defaults: { id: number; name: string; emails: string; headerNames: string[] } }) {
  const { state, pending, fieldErrors, formProps } = useActionForm(draftGroupEditAction);
  return (
    <form {...formProps} className="space-y-5" aria-label={`Edit webhook group ${defaults.name}`} data-testid="group-edit-form">
      <input type="hidden" name="id" value={defaults.id} />
      <FormMessage state={state} testId="group-edit" />
      <Field name="name" label="Name" defaultValue={defaults.name} error={fieldErrors.name} required maxLength={255} />
      <div>
        <label htmlFor="field-notification_emails" className="block text-sm font-medium text-slate-700">
          Notification addresses
        </label>
        <textarea
          id="field-notification_emails"
          name="notification_emails"
          defaultValue={defaults.emails}
          rows={3}
          aria-invalid={fieldErrors.notification_emails ? true : undefined}
          aria-describedby="emails-hint"
          className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
        />
        <p id="emails-hint" className="mt-1 text-xs text-slate-500">
          Separated by commas. They hear when a webhook of the group fails; at most 50.
        </p>
        {fieldErrors.notification_emails ? <p className="mt-1 text-sm text-red-700">{fieldErrors.notification_emails}</p> : null}
      </div>
      <HeaderEdits names={defaults.headerNames} error={fieldErrors.headers} />
      <Field name="title" label="Plan title (optional)" error={fieldErrors.title} maxLength={200} />
      <button type="submit" disabled={pending} className={buttonClasses("primary")} data-testid="group-edit-submit">
        {pending ? "Drafting…" : "Review the change"}
      </button>
    </form>
  );
}
