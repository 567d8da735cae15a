import type { Edit, EditKind, NewEventFields, NewWebhookFields } from "../api/edit-schema";
import type { EmsEvent, Webhook, WebhookGroup } from "../api/resources";
import type { DatasetCopy, GroupSlot } from "./dataset-copy";
import { WEBHOOK_EDITORS } from "./vocabulary";

/**
 * Applies one edit, as a person saving a form in the EMS web app would, to an account's own copy of
 * its data (data/dataset-copy.ts). A webhook or group that is changed gets `updated_at` (the
 * sandbox's now) and `updated_by` (the person) (docs/ems-api.md §4.1, §4.1a). An edit that
 * names something the account does not have is rejected with a message for the admin caller.
 */
export class EditRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EditRejected";
  }
}

/** What one edit did, for the admin answer. Header values never appear in it: they are credentials. */
export type AppliedEdit = {
  kind: EditKind;
  /** null for a webhook in no group (made through the API, docs/ems-api.md §8.1) and for an event's edit */
  groupId: number | null;
  webhookId?: number;
  /** an event added or changed */
  eventId?: number;
  /** the changed field: `url`, `enabled`, `name`, `notification_emails`, `webhook` (added or removed), `headers.<key>`, `event` (added), `status` (an event's) */
  field: string;
  before: unknown;
  after: unknown;
  by: string;
  at: string;
};

export type EditContext = {
  /** the sandbox clock's now, `YYYY-MM-DD HH:MM:SS` UTC like every timestamp of the data */
  now: string;
  /** an id for a new webhook, above every webhook id of every account */
  newWebhookId: () => number;
};

/** An event made in the web app: live from today unless the edit says otherwise (the fields a webhook check reads). */
function newEvent(copy: DatasetCopy, fields: NewEventFields, by: string, now: string): EmsEvent {
  const today = now.slice(0, 10);
  let highest = 0;
  for (let index = 0; index < copy.events.size; index++) highest = Math.max(highest, copy.events.value(index, "id") as number);
  const id = highest + 1;
  return {
    id,
    name: fields.name,
    status: fields.status ?? "live",
    type_id: null,
    folder_id: null,
    start_date: fields.start_date ?? today,
    end_date: fields.end_date ?? fields.start_date ?? today,
    start_time: "09:00:00",
    end_time: "17:00:00",
    timezone: fields.timezone ?? "UTC",
    capacity: null,
    free_event: 0,
    url: `event-${id}`,
    created_at: now,
    updated_at: now,
    close_date: null,
    close_time: null,
    description: null,
    domain: null,
    hashtag: null,
    organizer_id: null,
    target_attendance: null,
    webinar_url: null,
    created_by: by,
    updated_by: by,
  };
}

/** Who edits when the edit does not say: one of the people the generated data already names. */
export const DEFAULT_EDITOR = WEBHOOK_EDITORS[0];
/** Stands for a header value in an answer: whether one was there, not what it was. */
export const MASKED_VALUE = "********";

type HeaderPair = { key: string; value: string };
type Located = { groupIndex: GroupSlot; position: number; webhook: Webhook };

function requireGroup(copy: DatasetCopy, groupId: number): number {
  const index = copy.groupIndexOf(groupId);
  if (index === undefined) throw new EditRejected(`The account has no webhook group with id ${groupId}.`);
  return index;
}

function requireWebhook(copy: DatasetCopy, webhookId: number): Located {
  const found = copy.locateWebhook(webhookId);
  if (!found) throw new EditRejected(`The account has no webhook with id ${webhookId}.`);
  return found;
}

/** Replaces the webhook with a changed copy, stamped with who changed it and when. */
function saveWebhook(copy: DatasetCopy, { groupIndex, position, webhook }: Located, changes: Partial<Webhook>, by: string, now: string): void {
  const webhooks = [...copy.webhooksOf(groupIndex)];
  webhooks[position] = { ...webhook, ...changes, updated_at: now, updated_by: by };
  copy.replaceWebhooks(groupIndex, webhooks);
}

/** Header names compare case-insensitively, as in HTTP. */
const sameKey = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function maskHeaders(headers: readonly HeaderPair[]): HeaderPair[] {
  return headers.map(({ key }) => ({ key, value: MASKED_VALUE }));
}

function maskedWebhook(webhook: Webhook): Webhook {
  return { ...webhook, headers: maskHeaders(webhook.headers) };
}

/** A webhook made in the web app: the form's defaults for what the edit does not give. */
function newWebhook(id: number, groupId: number, fields: NewWebhookFields, by: string, now: string): Webhook {
  const trigger = fields.trigger_object ?? "registrant";
  // Fields in the API's order (resources.ts), as the generated webhooks have them.
  return {
    id,
    name: fields.name ?? `${trigger} → new webhook`,
    url: fields.url ?? `https://hooks.example.com/ems/${trigger}/${id}`,
    group_id: groupId,
    trigger_object: trigger,
    trigger_on_insert: fields.trigger_on_insert ?? true,
    trigger_on_update: fields.trigger_on_update ?? true,
    // Deletions on by default: a webhook sending inserts without deletions is a health finding.
    trigger_on_delete: fields.trigger_on_delete ?? true,
    public_user: fields.public_user ?? true,
    admin_user: fields.admin_user ?? true,
    api_call: fields.api_call ?? true,
    any_event: fields.any_event ?? false,
    event_ids: fields.event_ids ? [...new Set(fields.event_ids)].sort((a, b) => a - b) : [],
    enabled: fields.enabled ?? true,
    content_type: fields.content_type ?? "json",
    all_fields: fields.all_fields ?? false,
    use_default_fields: fields.use_default_fields ?? !fields.all_fields,
    post_field_data: fields.post_field_data ? [...fields.post_field_data] : [],
    fields: fields.fields ? [...fields.fields] : [],
    custom_fields: fields.custom_fields ? fields.custom_fields.map(({ key, type, value }) => ({ key, type, value })) : [],
    headers: fields.headers ? fields.headers.map(({ key, value }) => ({ key, value })) : [],
    notes: fields.notes ?? null,
    created_at: now,
    created_by: by,
    updated_at: now,
    updated_by: by,
  };
}

/** Adds the header, or replaces the value of the one with that name (keeping its place and spelling the key as given). */
function withHeader(headers: readonly HeaderPair[], key: string, value: string): HeaderPair[] {
  const at = headers.findIndex((header) => sameKey(header.key, key));
  if (at < 0) return [...headers, { key, value }];
  return headers.map((header, index) => (index === at ? { key, value } : header));
}

export function applyEdit(copy: DatasetCopy, edit: Edit, context: EditContext): AppliedEdit {
  const by = edit.by ?? DEFAULT_EDITOR;
  const { now } = context;
  const done = (change: Omit<AppliedEdit, "kind" | "by" | "at">): AppliedEdit => ({ kind: edit.kind, ...change, by, at: now });

  switch (edit.kind) {
    case "set-url": {
      const located = requireWebhook(copy, edit.webhookId);
      saveWebhook(copy, located, { url: edit.url }, by, now);
      return done({ groupId: located.webhook.group_id, webhookId: edit.webhookId, field: "url", before: located.webhook.url, after: edit.url });
    }
    case "set-enabled": {
      const located = requireWebhook(copy, edit.webhookId);
      saveWebhook(copy, located, { enabled: edit.enabled }, by, now);
      return done({ groupId: located.webhook.group_id, webhookId: edit.webhookId, field: "enabled", before: located.webhook.enabled, after: edit.enabled });
    }
    case "add-webhook": {
      const groupIndex = requireGroup(copy, edit.groupId);
      const fields = edit.webhook ?? {};
      // The web app offers only the account's own events.
      const unknownEvent = fields.event_ids?.find((eventId) => copy.events.indexOfId(eventId) === undefined);
      if (unknownEvent !== undefined) throw new EditRejected(`The account has no event with id ${unknownEvent}.`);
      const webhook = newWebhook(context.newWebhookId(), edit.groupId, fields, by, now);
      copy.addWebhook(groupIndex, webhook);
      return done({ groupId: edit.groupId, webhookId: webhook.id, field: "webhook", before: null, after: maskedWebhook(webhook) });
    }
    case "remove-webhook": {
      const { groupIndex, webhook } = requireWebhook(copy, edit.webhookId);
      copy.replaceWebhooks(
        groupIndex,
        copy.webhooksOf(groupIndex).filter((other) => other.id !== webhook.id),
      );
      return done({ groupId: webhook.group_id, webhookId: webhook.id, field: "webhook", before: maskedWebhook(webhook), after: null });
    }
    case "set-header":
    case "remove-header": {
      const located = edit.target === "webhook" ? requireWebhook(copy, edit.id) : undefined;
      const groupIndex = located ? null : requireGroup(copy, edit.id);
      const group: WebhookGroup | null = groupIndex === null ? null : copy.groupAt(groupIndex);
      const headers = located ? located.webhook.headers : group!.headers;
      const existing = headers.find((header) => sameKey(header.key, edit.key));
      let changed: HeaderPair[];
      if (edit.kind === "set-header") {
        changed = withHeader(headers, edit.key, edit.value);
      } else {
        if (!existing) throw new EditRejected(`The ${edit.target === "group" ? "webhook group" : "webhook"} with id ${edit.id} has no header "${edit.key}".`);
        changed = headers.filter((header) => header !== existing);
      }
      if (located) saveWebhook(copy, located, { headers: changed }, by, now);
      else copy.replaceGroup(groupIndex!, { ...group!, headers: changed, updated_at: now, updated_by: by });
      return done({
        groupId: located ? located.webhook.group_id : group!.id,
        ...(located ? { webhookId: edit.id } : {}),
        field: `headers.${existing?.key ?? edit.key}`,
        before: existing ? MASKED_VALUE : null,
        after: edit.kind === "set-header" ? MASKED_VALUE : null,
      });
    }
    case "rename-group": {
      const groupIndex = requireGroup(copy, edit.groupId);
      const group = copy.groupAt(groupIndex);
      copy.replaceGroup(groupIndex, { ...group, name: edit.name, updated_at: now, updated_by: by });
      return done({ groupId: group.id, field: "name", before: group.name, after: edit.name });
    }
    case "add-event": {
      const event = newEvent(copy, edit.event, by, now);
      copy.saveEvent(event);
      return done({ groupId: null, eventId: event.id, field: "event", before: null, after: { id: event.id, name: event.name, status: event.status } });
    }
    case "set-event-status": {
      const at = copy.events.indexOfId(edit.eventId);
      if (at === undefined) throw new EditRejected(`The account has no event with id ${edit.eventId}.`);
      const event = copy.events.row(at);
      copy.saveEvent({ ...event, status: edit.status, updated_at: now, updated_by: by });
      return done({ groupId: null, eventId: event.id, field: "status", before: event.status, after: edit.status });
    }
    case "set-notification-emails": {
      const groupIndex = requireGroup(copy, edit.groupId);
      const group = copy.groupAt(groupIndex);
      copy.replaceGroup(groupIndex, { ...group, notification_emails: [...edit.emails], updated_at: now, updated_by: by });
      return done({ groupId: group.id, field: "notification_emails", before: group.notification_emails, after: [...edit.emails] });
    }
  }
}
