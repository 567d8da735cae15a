"use client";

import { useState } from "react";
import { draftBulkAction } from "@/lib/actions/plans/draft";
import { buttonClasses } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/forms/form-message";
import { useActionForm } from "@/components/forms/use-action-form";

const WEBHOOK_EDITS = [
  { value: "replace-host", label: "Replace a URL host" },
  { value: "use-https", label: "Switch http URLs to https" },
  { value: "set-header", label: "Set or rotate a header value" },
  { value: "remove-header", label: "Remove a header" },
  { value: "set-enabled", label: "Enable or disable" },
  { value: "add-events", label: "Add events" },
  { value: "remove-events", label: "Remove events" },
  { value: "set-content-type", label: "Switch the content type" },
  { value: "move-to-group", label: "Move to another group" },
] as const;
const GROUP_EDITS = [
  { value: "add-notification-email", label: "Add a notification address" },
  { value: "set-notification-emails", label: "Set the notification addresses" },
] as const;

export interface BulkDefaults {
  edit?: string;
  from?: string;
  to?: string;
  emails?: string;
  enabled?: "true" | "false";
  title?: string;
}

const selectClass = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm";

/**
 * One change for every selected record, drafted as a plan: each record gets only what changes for it,
 * and the plan page shows the diff, the impact and the cost before anything is sent for review.
 */
export function BulkEditForm({
  resource,
  ids,
  groups,
  defaults = {},
}: {
  resource: "webhooks" | "webhook-groups";
  ids: number[];
  groups: { id: number; name: string }[];
  defaults?: BulkDefaults;
}) {
  const options = resource === "webhooks" ? WEBHOOK_EDITS : GROUP_EDITS;
  const [edit, setEdit] = useState<string>(defaults.edit ?? options[0].value);
  const { state, pending, fieldErrors, formProps } = useActionForm(draftBulkAction);
  return (
    <form {...formProps} className="space-y-4" aria-label="Bulk change" data-testid="bulk-edit-form">
      <input type="hidden" name="resource" value={resource} />
      <input type="hidden" name="ids" value={ids.join(",")} />
      <FormMessage state={state} testId="bulk-edit" />
      <div>
        <label htmlFor="bulk-edit" className="block text-sm font-medium text-slate-700">
          Change
        </label>
        <select id="bulk-edit" name="edit" value={edit} onChange={(event) => setEdit(event.target.value)} className={selectClass}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        {fieldErrors.edit ? <p className="mt-1 text-sm text-red-700">{fieldErrors.edit}</p> : null}
      </div>
      {edit === "replace-host" ? (
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <Field name="from" label="Host to replace" placeholder="old.example.com" defaultValue={defaults.from} error={fieldErrors.from} required />
          <Field
            name="to"
            label="New host"
            placeholder="new.example.com"
            defaultValue={defaults.to}
            error={fieldErrors.to}
            required
            hint="Path and query stay as they are."
          />
        </div>
      ) : null}
      {edit === "set-header" || edit === "remove-header" ? (
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <Field name="key" label="Header name" placeholder="X-Api-Key" error={fieldErrors.key} required autoComplete="off" />
          {edit === "set-header" ? (
            <Field name="value" label="New value" type="password" autoComplete="off" error={fieldErrors.value} required hint="Never shown again, not even on the plan." />
          ) : null}
        </div>
      ) : null}
      {edit === "set-enabled" ? (
        <fieldset className="flex gap-4 text-sm">
          <legend className="mb-1 font-medium text-slate-700">Make them</legend>
          <label className="flex items-center gap-2">
            <input type="radio" name="enabled" value="true" defaultChecked={defaults.enabled !== "false"} /> Enabled
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" name="enabled" value="false" defaultChecked={defaults.enabled === "false"} /> Disabled
          </label>
        </fieldset>
      ) : null}
      {edit === "add-events" || edit === "remove-events" ? <Field name="eventIds" label="Event ids" placeholder="12, 15" error={fieldErrors.eventIds} required /> : null}
      {edit === "set-content-type" ? (
        <div>
          <label htmlFor="bulk-content-type" className="block text-sm font-medium text-slate-700">
            Content type
          </label>
          <select id="bulk-content-type" name="contentType" className={selectClass}>
            <option value="json">json</option>
            <option value="post">post (form-encoded)</option>
          </select>
        </div>
      ) : null}
      {edit === "move-to-group" ? (
        <div>
          <label htmlFor="bulk-group" className="block text-sm font-medium text-slate-700">
            Group
          </label>
          <select id="bulk-group" name="groupId" className={selectClass} required defaultValue="">
            <option value="" disabled>
              Choose a group
            </option>
            {groups.map((group) => (
              <option key={group.id} value={group.id}>
                {group.name} (group {group.id})
              </option>
            ))}
          </select>
          {fieldErrors.groupId ? <p className="mt-1 text-sm text-red-700">{fieldErrors.groupId}</p> : null}
        </div>
      ) : null}
      {edit === "add-notification-email" || edit === "set-notification-emails" ? (
        <Field
          name="emails"
          label={edit === "add-notification-email" ? "Address to add" : "Addresses"}
          defaultValue={defaults.emails}
          error={fieldErrors.emails}
          required={edit === "add-notification-email"}
          hint={edit === "set-notification-emails" ? "Separated by commas; empty clears them." : undefined}
        />
      ) : null}
      <Field name="title" label="Plan title (optional)" defaultValue={defaults.title} error={fieldErrors.title} maxLength={200} />
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={pending} className={buttonClasses("primary")} data-testid="bulk-edit-submit">
          {pending ? "Drafting…" : "Review the change"}
        </button>
        <p className="text-sm text-slate-600">Nothing changes in the EMS yet.</p>
      </div>
    </form>
  );
}
