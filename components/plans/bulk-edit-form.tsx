"use client";

import { useState } from "react";
import type { GROUP_BULK_KINDS, WEBHOOK_BULK_KINDS } from "@/lib/plans/bulk";
import { PLAN_TITLE_MAX } from "@/lib/plans/limits";
import { draftBulkAction } from "@/lib/actions/plans/draft-bulk";
import { buttonClasses } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/forms/form-message";
import { useActionForm } from "@/components/forms/use-action-form";
import { GroupOptions } from "./group-options";

/** Each kind's label, in the order the form lists them: keyed by lib/plans/bulk.ts's kinds, so a kind added there needs its label here. */
const WEBHOOK_EDIT_LABELS: Record<(typeof WEBHOOK_BULK_KINDS)[number], string> = {
  "replace-host": "Replace a URL host",
  "use-https": "Switch http URLs to https",
  "set-header": "Set or rotate a header value",
  "remove-header": "Remove a header",
  "set-enabled": "Enable or disable",
  "add-events": "Add events",
  "remove-events": "Remove events",
  "set-content-type": "Switch the content type",
  "move-to-group": "Move to another group",
};
const GROUP_EDIT_LABELS: Record<(typeof GROUP_BULK_KINDS)[number], string> = {
  "add-notification-email": "Add a notification address",
  "set-notification-emails": "Set the notification addresses",
};
const optionsOf = (labels: Record<string, string>) => Object.entries(labels).map(([value, label]) => ({ value, label }));
const WEBHOOK_EDITS = optionsOf(WEBHOOK_EDIT_LABELS);
const GROUP_EDITS = optionsOf(GROUP_EDIT_LABELS);

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
            <GroupOptions groups={groups} none={null} />
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
      <Field name="title" label="Plan title (optional)" defaultValue={defaults.title} error={fieldErrors.title} maxLength={PLAN_TITLE_MAX} />
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={pending} className={buttonClasses("primary")} data-testid="bulk-edit-submit">
          {pending ? "Drafting…" : "Review the change"}
        </button>
        <p className="text-sm text-slate-600">Nothing changes in the EMS yet.</p>
      </div>
    </form>
  );
}
