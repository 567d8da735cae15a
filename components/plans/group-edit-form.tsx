"use client";

import { draftGroupCreateAction } from "@/lib/actions/plans/draft-group-create";
import { draftGroupDeleteAction } from "@/lib/actions/plans/draft-group-delete";
import { draftGroupEditAction } from "@/lib/actions/plans/draft-group-edit";
import { PLAN_TITLE_MAX } from "@/lib/plans/limits";
import { buttonClasses } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/forms/form-message";
import { useActionForm } from "@/components/forms/use-action-form";
import { HeaderEdits } from "./header-edits";

/** A webhook group's fields as the form starts from them; `id` null: a new group. */
export interface GroupFormDefaults {
  id: number | null;
  name: string;
  emails: string;
  headerNames: string[];
}

export const NEW_GROUP: GroupFormDefaults = { id: null, name: "", emails: "", headerNames: [] };

/** A webhook group's name, notification addresses and headers as a draft plan (an edit, or a new group). */
export function GroupEditForm({ defaults }: { defaults: GroupFormDefaults }) {
  // Fixed for the form's life: a form is either a new group's or an existing one's.
  const { state, pending, fieldErrors, formProps } = useActionForm(defaults.id === null ? draftGroupCreateAction : draftGroupEditAction);
  return (
    <form
      {...formProps}
      className="space-y-5"
      aria-label={defaults.id === null ? "New webhook group" : `Edit webhook group ${defaults.name}`}
      data-testid="group-edit-form"
    >
      {defaults.id === null ? null : <input type="hidden" name="id" value={defaults.id} />}
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
          aria-describedby={fieldErrors.notification_emails ? "emails-hint field-notification_emails-error" : "emails-hint"}
          className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
        />
        <p id="emails-hint" className="mt-1 text-xs text-slate-500">
          Separated by commas. They hear when a webhook of the group fails; at most 50.
        </p>
        {fieldErrors.notification_emails ? (
          <p id="field-notification_emails-error" className="mt-1 text-sm text-red-700">
            {fieldErrors.notification_emails}
          </p>
        ) : null}
      </div>
      <HeaderEdits names={defaults.headerNames} error={fieldErrors.headers} />
      <Field name="title" label="Plan title (optional)" error={fieldErrors.title} maxLength={PLAN_TITLE_MAX} />
      <button type="submit" disabled={pending} className={buttonClasses("primary")} data-testid="group-edit-submit">
        {pending ? "Drafting…" : "Review the change"}
      </button>
    </form>
  );
}

/** Deleting a group, as a plan of its own; the EMS refuses while it has webhooks, and drafting says so first. */
export function GroupDeleteForm({ id }: { id: number }) {
  const { state, pending, formProps } = useActionForm(draftGroupDeleteAction);
  return (
    <form {...formProps} className="space-y-2 rounded-lg border border-slate-200 bg-white p-4" aria-label="Delete this webhook group">
      <h2 className="text-sm font-semibold text-slate-900">Delete</h2>
      <p className="text-sm text-slate-600">A group is deleted once it has no webhooks left. The plan shows it before anything is sent.</p>
      <input type="hidden" name="id" value={id} />
      <button type="submit" disabled={pending} className={buttonClasses("ghost-danger", { size: "sm" })} data-testid="group-delete">
        {pending ? "Drafting…" : "Draft its deletion"}
      </button>
      <FormMessage state={state} testId="group-delete" />
    </form>
  );
}
