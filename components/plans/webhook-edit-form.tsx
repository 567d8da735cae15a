"use client";

import { draftWebhookCreateAction } from "@/lib/actions/plans/draft-webhook-create";
import { draftWebhookEditAction } from "@/lib/actions/plans/draft-webhook-edit";
import { PLAN_TITLE_MAX } from "@/lib/plans/limits";
import { buttonClasses } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/forms/form-message";
import { useActionForm } from "@/components/forms/use-action-form";
import type { WebhookEditDefaults } from "@/lib/plans/edits";
import { HeaderEdits } from "./header-edits";
import { GroupOptions } from "./group-options";

const selectClass = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm";

function Check({ name, label, defaultChecked }: { name: string; label: string; defaultChecked: boolean }) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <input type="checkbox" name={name} defaultChecked={defaultChecked} className="size-4 rounded border-slate-300" />
      {label}
    </label>
  );
}

/**
 * A webhook's fields as a plan's draft: nothing is sent to the EMS from here. "Review the change"
 * drafts a plan and opens it (the diff, its impact), from where it goes to review. A refused draft
 * keeps what was typed and says what is wrong next to each field.
 */
export function WebhookEditForm({
  defaults,
  groups,
  triggerObjects,
  contentTypes,
  replacesPlanId = null,
}: {
  /** A draft of this person's that saving replaces (editing a draft). */
  replacesPlanId?: string | null;
  defaults: WebhookEditDefaults;
  groups: { id: number; name: string }[];
  triggerObjects: readonly string[];
  contentTypes: readonly string[];
}) {
  const { state, pending, fieldErrors, formProps } = useActionForm(defaults.id === null ? draftWebhookCreateAction : draftWebhookEditAction);
  return (
    <form {...formProps} className="space-y-5" aria-label={defaults.id === null ? "New webhook" : `Edit webhook ${defaults.name}`} data-testid="webhook-edit-form">
      {defaults.id === null ? null : <input type="hidden" name="id" value={String(defaults.id)} />}
      {replacesPlanId ? <input type="hidden" name="replacesPlanId" value={replacesPlanId} /> : null}
      <FormMessage state={state} testId="webhook-edit" />
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
        <Field name="name" label="Name" defaultValue={defaults.name} error={fieldErrors.name} required maxLength={255} />
        <div>
          <label htmlFor="field-group_id" className="block text-sm font-medium text-slate-700">
            Group
          </label>
          <select
            id="field-group_id"
            name="group_id"
            defaultValue={defaults.groupId ?? ""}
            className={selectClass}
            aria-invalid={fieldErrors.group_id ? true : undefined}
          >
            <GroupOptions groups={groups} />
          </select>
          {fieldErrors.group_id ? <p className="mt-1 text-sm text-red-700">{fieldErrors.group_id}</p> : null}
        </div>
        <Field
          name="url"
          label="URL"
          type="url"
          defaultValue={defaults.url}
          error={fieldErrors.url}
          required
          maxLength={2048}
          className="md:col-span-2"
          hint="Where the EMS sends what this webhook fires for: a new address receives it from the first delivery on."
        />
        <div>
          <label htmlFor="field-trigger_object" className="block text-sm font-medium text-slate-700">
            Trigger object
          </label>
          <select id="field-trigger_object" name="trigger_object" defaultValue={defaults.triggerObject} className={selectClass}>
            {triggerObjects.map((object) => (
              <option key={object} value={object}>
                {object.replaceAll("_", " ")}
              </option>
            ))}
          </select>
          {fieldErrors.trigger_object ? <p className="mt-1 text-sm text-red-700">{fieldErrors.trigger_object}</p> : null}
        </div>
        <div>
          <label htmlFor="field-content_type" className="block text-sm font-medium text-slate-700">
            Content type
          </label>
          <select id="field-content_type" name="content_type" defaultValue={defaults.contentType} className={selectClass}>
            {contentTypes.map((type) => (
              <option key={type} value={type}>
                {type === "post" ? "post (form-encoded)" : type}
              </option>
            ))}
          </select>
        </div>
      </div>
      <fieldset className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        <legend className="mb-1 text-sm font-medium text-slate-700">Fires on</legend>
        <Check name="trigger_on_insert" label="Insert" defaultChecked={defaults.onInsert} />
        <Check name="trigger_on_update" label="Update" defaultChecked={defaults.onUpdate} />
        <Check name="trigger_on_delete" label="Delete" defaultChecked={defaults.onDelete} />
        <Check name="enabled" label="Enabled" defaultChecked={defaults.enabled} />
      </fieldset>
      <fieldset className="grid grid-cols-1 gap-2 sm:grid-cols-3">
        <legend className="mb-1 text-sm font-medium text-slate-700">Made by</legend>
        <Check name="public_user" label="Public users" defaultChecked={defaults.publicUser} />
        <Check name="admin_user" label="Admin users" defaultChecked={defaults.adminUser} />
        <Check name="api_call" label="API calls" defaultChecked={defaults.apiCall} />
      </fieldset>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-700">Events</legend>
        <Check name="any_event" label="Every event" defaultChecked={defaults.anyEvent} />
        <Field
          name="event_ids"
          label="Or these event ids"
          defaultValue={defaults.eventIds.join(", ")}
          error={fieldErrors.event_ids}
          hint="Separated by commas; ignored when “Every event” is on."
        />
      </fieldset>
      <HeaderEdits names={defaults.headerNames} error={fieldErrors.headers} />
      <div>
        <label htmlFor="field-notes" className="block text-sm font-medium text-slate-700">
          Notes
        </label>
        <textarea id="field-notes" name="notes" defaultValue={defaults.notes} rows={2} maxLength={2000} className={selectClass} />
      </div>
      <Field name="title" label="Plan title (optional)" placeholder="Say what this change is for" error={fieldErrors.title} maxLength={PLAN_TITLE_MAX} />
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={pending} className={buttonClasses("primary")} data-testid="webhook-edit-submit">
          {pending ? "Drafting…" : "Review the change"}
        </button>
        <p className="text-sm text-slate-600">Nothing changes in the EMS yet: you see the plan, its diff and its impact first.</p>
      </div>
    </form>
  );
}
