import { JSON_CONTENT_TYPE, type SandboxRequest, type SandboxResponse } from "../core/http-types";
import { SandboxHttpError } from "../core/errors";
import type { DatasetCopy } from "../data/dataset-copy";
import type { AccountDataset } from "../data/datasets";
import { parseFormBody, requireFormBody, sentNames, type FormBody } from "./form-body";
import { CONTENT_TYPES, TRIGGER_OBJECTS, type CustomField, type Webhook, type WebhookGroup } from "./resources";

/**
 * Changing the webhook setup through the API (docs/ems-api.md §8): create, update and delete of
 * webhooks and webhook groups, with every validation rule of §8.1 and §8.2. Each write is applied
 * to a draft of the account's copy (data/dataset-copy.ts) and served from a new dataset, so every
 * cache made from the old data (listing answers, row JSON, search masks, indexes) is left behind.
 * A refused write changes nothing.
 */
export const WRITE_RESOURCES = ["webhooks", "webhook-groups"] as const;
export type WriteResource = (typeof WRITE_RESOURCES)[number];
export type WriteOperation = { resource: WriteResource; op: "create" | "update" | "delete"; rawId?: string };

export type FieldError = { field: string; message: string };

/** What a write needs of the sandbox: the account's data now, and a way to change it all or nothing. */
export type WriteStore = {
  dataset(): AccountDataset;
  /** Runs `change` on a draft of the account's copy; the draft is kept only if it returns. */
  commit<T>(change: (draft: DatasetCopy, context: WriteContext) => T): T;
};

export type WriteContext = { now: string; newWebhookId: () => number; newGroupId: () => number };

/** A 422: the body is the array of field errors (docs/ems-api.md §6). */
class ValidationFailed extends Error {
  constructor(readonly errors: FieldError[]) {
    super("validation failed");
  }
}

const json = (status: number, value: unknown): SandboxResponse => ({ status, headers: { "content-type": JSON_CONTENT_TYPE }, body: JSON.stringify(value) });

export function handleWrite(operation: WriteOperation, request: SandboxRequest, consumerKey: string, store: WriteStore): SandboxResponse {
  const id = operation.op === "create" ? undefined : parseId(operation.rawId ?? "", operation.resource);
  if (operation.op !== "delete") requireFormBody(request.headers["content-type"]);
  const by = `API (${consumerKey})`;
  try {
    if (operation.resource === "webhooks") {
      if (operation.op === "create")
        return json(
          201,
          store.commit((draft, context) => createWebhook(draft, parseFormBody(request.body), by, context)),
        );
      if (operation.op === "update")
        return json(
          200,
          store.commit((draft, context) => updateWebhook(draft, id!, parseFormBody(request.body), by, context)),
        );
      store.commit((draft) => deleteWebhook(draft, id!));
      return { status: 204, headers: {}, body: "" };
    }
    if (operation.op === "create")
      return json(
        201,
        store.commit((draft, context) => createGroup(draft, parseFormBody(request.body), by, context)),
      );
    if (operation.op === "update")
      return json(
        200,
        store.commit((draft, context) => updateGroup(draft, id!, parseFormBody(request.body), by, context)),
      );
    store.commit((draft) => deleteGroup(draft, id!));
    return { status: 204, headers: {}, body: "" };
  } catch (error) {
    if (error instanceof ValidationFailed) return json(422, error.errors);
    throw error;
  }
}

function parseId(rawId: string, resource: WriteResource): number {
  const id = /^\d{1,15}$/.test(rawId) ? Number(rawId) : NaN;
  if (!(id >= 1)) throw new SandboxHttpError(400, `"${rawId.slice(0, 40)}" is not a ${singular(resource)} id: ids are positive integers.`);
  return id;
}

const singular = (resource: WriteResource) => (resource === "webhooks" ? "webhook" : "webhook group");

// ---- reading and checking a body --------------------------------------------------------------

/** Lengths count Unicode code points, not UTF-16 units (docs/ems-api.md §8.1). */
const codePoints = (text: string) => [...text].length;
const CONTROL = /[\u0000-\u001f\u007f]/;
const HEADER_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const VALUE_CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;
const EMAIL = /^[^\s@<>(),;:"[\]]+@[^\s@<>(),;:"[\]]+\.[^\s@<>(),;:"[\]]+$/;

/** `trigger_on_insert` -> "Trigger On Insert", as the framework labels a field in its messages. */
function label(field: string): string {
  return field
    .split("_")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}

/** Reads the fields of a form body, collecting every field error rather than stopping at the first. */
class BodyReader {
  readonly errors: FieldError[] = [];

  constructor(
    private readonly form: FormBody,
    known: readonly string[],
  ) {
    // Unknown fields are refused by their own name: a typo never passes silently.
    for (const name of sentNames(form)) if (!known.includes(name)) this.fail(name, `Unknown field "${name}".`);
  }

  fail(field: string, message: string): void {
    if (!this.errors.some((error) => error.field === field)) this.errors.push({ field, message });
  }

  sent(name: string): boolean {
    return this.form.values.has(name) || this.form.lists.has(name) || this.form.objectLists.has(name);
  }

  /** A single value; sent as a list it is an error. */
  value(name: string): string | undefined {
    if (this.form.lists.has(name) || this.form.objectLists.has(name)) {
      this.fail(name, `${label(name)} must be a single value.`);
      return undefined;
    }
    return this.form.values.get(name);
  }

  text(name: string, options: { required: boolean; max: number }): string | undefined {
    const value = this.value(name);
    if (value === undefined) {
      if (options.required && !this.sent(name)) this.fail(name, `${label(name)} cannot be blank.`);
      return undefined;
    }
    if (value.trim() === "") this.fail(name, `${label(name)} cannot be blank.`);
    else if (codePoints(value) > options.max) this.fail(name, `${label(name)} should contain at most ${options.max} characters.`);
    return value;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], required: boolean): T | undefined {
    const value = this.value(name);
    if (value === undefined) {
      if (required && !this.sent(name)) this.fail(name, `${label(name)} cannot be blank.`);
      return undefined;
    }
    if (!(allowed as readonly string[]).includes(value)) {
      this.fail(name, `${label(name)} is invalid: use one of ${allowed.join(", ")}.`);
      return undefined;
    }
    return value as T;
  }

  /** `1`/`0`, or `true`/`false` (docs/ems-api.md §8.1). */
  bool(name: string): boolean | undefined {
    const value = this.value(name);
    if (value === undefined) return undefined;
    if (value === "1" || value === "true") return true;
    if (value === "0" || value === "false") return false;
    this.fail(name, `${label(name)} must be either "1" or "0".`);
    return undefined;
  }

  /** A list: `name[]=…` entries in the order sent, or the bare `name=` for an empty list. */
  list(name: string): string[] | undefined {
    if (this.form.objectLists.has(name)) {
      this.fail(name, `${label(name)} is a list of values: send ${name}[]=….`);
      return undefined;
    }
    const entries = this.form.lists.get(name);
    if (entries) return entries;
    const bare = this.form.values.get(name);
    if (bare === undefined) return undefined;
    if (bare !== "") this.fail(name, `${label(name)} is a list: send ${name}[]=… for each entry, or ${name}= (empty) to clear it.`);
    return bare === "" ? [] : undefined;
  }

  /** A list of objects: `name[i][property]=…` with exactly `properties`, or the bare `name=` to clear it. */
  objects(name: string, properties: readonly string[]): Record<string, string>[] | undefined {
    if (this.form.lists.has(name)) {
      this.fail(name, `${label(name)} is a list of objects: send ${name}[0][${properties[0]}]=….`);
      return undefined;
    }
    const entries = this.form.objectLists.get(name);
    if (!entries) {
      const bare = this.form.values.get(name);
      if (bare === undefined) return undefined;
      if (bare !== "") this.fail(name, `${label(name)} is a list: send ${name}[0][${properties[0]}]=… for each entry, or ${name}= (empty) to clear it.`);
      return bare === "" ? [] : undefined;
    }
    const objects: Record<string, string>[] = [];
    for (const entry of entries.values()) {
      const keys = [...entry.keys()];
      if (keys.length !== properties.length || !properties.every((property) => entry.has(property))) {
        this.fail(name, `Each entry of ${label(name)} has exactly ${properties.join(", ")}.`);
        return undefined;
      }
      objects.push(Object.fromEntries(properties.map((property) => [property, entry.get(property)!])));
    }
    return objects;
  }

  /** A positive integer, or the empty value for "none" when `nullable`. */
  id(name: string): number | null | undefined {
    const value = this.value(name);
    if (value === undefined) return undefined;
    if (value === "") return null;
    if (!/^\d{1,15}$/.test(value) || Number(value) < 1) {
      this.fail(name, `${label(name)} must be a positive integer.`);
      return undefined;
    }
    return Number(value);
  }

  headers(name = "headers"): { key: string; value: string }[] | undefined {
    const headers = this.objects(name, ["key", "value"]);
    if (!headers) return undefined;
    const seen = new Set<string>();
    for (const { key, value } of headers) {
      if (key === "") return void this.fail(name, "A header key cannot be blank.");
      if (codePoints(key) > 255) return void this.fail(name, "A header key should contain at most 255 characters.");
      if (CONTROL.test(key)) return void this.fail(name, "A header key cannot hold control characters.");
      // As HTTP has them (RFC 9110 §5.1, §5.5): a name is a token, a value one line.
      if (!HEADER_TOKEN.test(key)) return void this.fail(name, `The header key "${key}" is not a valid HTTP header name.`);
      if (VALUE_CONTROL.test(value)) return void this.fail(name, `The value of header "${key}" cannot hold line breaks or control characters.`);
      // Header names compare ignoring case, as in HTTP.
      const folded = key.toLowerCase();
      if (seen.has(folded)) return void this.fail(name, `The header "${key}" is given twice (keys are compared ignoring case).`);
      seen.add(folded);
    }
    return headers.map(({ key, value }) => ({ key, value }));
  }

  /** `fields` / `post_field_data`: non-empty entries of at most 64 characters. */
  fieldNames(name: string): string[] | undefined {
    const entries = this.list(name);
    if (!entries) return undefined;
    if (entries.some((entry) => entry === "")) return void this.fail(name, `An entry of ${label(name)} cannot be blank.`);
    if (entries.some((entry) => codePoints(entry) > 64)) return void this.fail(name, `An entry of ${label(name)} should contain at most 64 characters.`);
    return entries;
  }

  customFields(): CustomField[] | undefined {
    const entries = this.objects("custom_fields", ["key", "type", "value"]);
    if (!entries) return undefined;
    for (const entry of entries) {
      for (const property of ["key", "type", "value"] as const) {
        if (entry[property] === "") return void this.fail("custom_fields", `The ${property} of a custom field cannot be blank.`);
        if (codePoints(entry[property]) > 255) return void this.fail("custom_fields", `The ${property} of a custom field should contain at most 255 characters.`);
      }
    }
    return entries.map(({ key, type, value }) => ({ key, type, value }));
  }

  /** The account's events only (docs/ems-api.md §8.1). */
  eventIds(copy: DatasetCopy): number[] | undefined {
    const entries = this.list("event_ids");
    if (!entries) return undefined;
    const ids: number[] = [];
    for (const entry of entries) {
      if (!/^\d{1,15}$/.test(entry) || Number(entry) < 1) return void this.fail("event_ids", `Event Ids must hold positive integers, not "${entry.slice(0, 20)}".`);
      if (copy.events.indexOfId(Number(entry)) === undefined) return void this.fail("event_ids", `The account has no event with id ${entry}.`);
      ids.push(Number(entry));
    }
    return ids;
  }

  emails(): string[] | undefined {
    const entries = this.list("notification_emails");
    if (!entries) return undefined;
    const bad = entries.find((entry) => !EMAIL.test(entry) || codePoints(entry) > 255);
    if (bad !== undefined) return void this.fail("notification_emails", `"${bad.slice(0, 60)}" is not a valid email address.`);
    if (entries.length > 50) return void this.fail("notification_emails", "Notification Emails should contain at most 50 addresses.");
    return entries;
  }

  /** Throws the 422 when anything failed. */
  check(): void {
    if (this.errors.length) throw new ValidationFailed(this.errors);
  }
}

// ---- webhooks ---------------------------------------------------------------------------------

const WEBHOOK_BOOLEANS = [
  "trigger_on_insert",
  "trigger_on_update",
  "trigger_on_delete",
  "public_user",
  "admin_user",
  "api_call",
  "any_event",
  "enabled",
  "all_fields",
  "use_default_fields",
] as const;

const WEBHOOK_FIELDS = [
  "name",
  "url",
  "group_id",
  "webhook_group_id",
  "trigger_object",
  ...WEBHOOK_BOOLEANS,
  "event_ids",
  "content_type",
  "post_field_data",
  "fields",
  "custom_fields",
  "headers",
  "notes",
];

type WebhookChanges = Partial<Omit<Webhook, "id" | "created_at" | "created_by" | "updated_at" | "updated_by">>;

function checkUrl(reader: BodyReader, url: string | undefined): void {
  if (url === undefined || url.trim() === "") return;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:") || parsed.hostname === "" || /\s/.test(url)) {
    reader.fail("url", "Url is not a valid URL: an absolute http:// or https:// address.");
  } else if (codePoints(url) > 2048) {
    reader.fail("url", "Url should contain at most 2048 characters.");
  }
}

/** The changes a body asks for, checked: what it does not send is not in the result. */
function readWebhookChanges(copy: DatasetCopy, form: FormBody, creating: boolean): WebhookChanges {
  const reader = new BodyReader(form, WEBHOOK_FIELDS);
  const changes: WebhookChanges = {};
  const name = reader.text("name", { required: creating, max: 255 });
  const url = reader.text("url", { required: creating, max: Number.MAX_SAFE_INTEGER });
  checkUrl(reader, url);
  const trigger = reader.oneOf("trigger_object", TRIGGER_OBJECTS, creating);
  const contentType = reader.oneOf("content_type", CONTENT_TYPES, false);
  // `webhook_group_id` is the same field as `group_id` (the service's own example sends it).
  const groupId = reader.id("group_id");
  const aliasId = reader.id("webhook_group_id");
  if (groupId !== undefined && aliasId !== undefined && groupId !== aliasId) {
    reader.fail("webhook_group_id", "Webhook Group Id and Group Id name different groups: send one of them.");
  }
  const group = groupId !== undefined ? groupId : aliasId;
  if (group !== undefined && group !== null && copy.groupIndexOf(group) === undefined) {
    reader.fail(groupId !== undefined ? "group_id" : "webhook_group_id", `The account has no webhook group with id ${group}.`);
  }
  for (const field of WEBHOOK_BOOLEANS) {
    const value = reader.bool(field);
    if (value !== undefined) changes[field] = value;
  }
  const eventIds = reader.eventIds(copy);
  const postFieldData = reader.fieldNames("post_field_data");
  const fields = reader.fieldNames("fields");
  const customFields = reader.customFields();
  const headers = reader.headers();
  const notes = reader.value("notes");
  reader.check();
  if (name !== undefined) changes.name = name;
  if (url !== undefined) changes.url = url;
  if (trigger !== undefined) changes.trigger_object = trigger;
  if (contentType !== undefined) changes.content_type = contentType;
  if (group !== undefined) changes.group_id = group;
  if (eventIds !== undefined) changes.event_ids = eventIds;
  if (postFieldData !== undefined) changes.post_field_data = postFieldData;
  if (fields !== undefined) changes.fields = fields;
  if (customFields !== undefined) changes.custom_fields = customFields;
  if (headers !== undefined) changes.headers = headers;
  if (notes !== undefined) changes.notes = notes === "" ? null : notes;
  return changes;
}

/** A webhook in the API's field order (api/resources.ts), whatever order the changes came in. */
function webhookRow(base: Webhook, changes: WebhookChanges, stamp: { updated_at: string; updated_by: string }): Webhook {
  const merged = { ...base, ...changes, ...stamp };
  return {
    id: merged.id,
    name: merged.name,
    url: merged.url,
    group_id: merged.group_id,
    trigger_object: merged.trigger_object,
    trigger_on_insert: merged.trigger_on_insert,
    trigger_on_update: merged.trigger_on_update,
    trigger_on_delete: merged.trigger_on_delete,
    public_user: merged.public_user,
    admin_user: merged.admin_user,
    api_call: merged.api_call,
    any_event: merged.any_event,
    event_ids: merged.event_ids,
    enabled: merged.enabled,
    content_type: merged.content_type,
    all_fields: merged.all_fields,
    use_default_fields: merged.use_default_fields,
    post_field_data: merged.post_field_data,
    fields: merged.fields,
    custom_fields: merged.custom_fields,
    headers: merged.headers,
    notes: merged.notes,
    created_at: merged.created_at,
    created_by: merged.created_by,
    updated_at: merged.updated_at,
    updated_by: merged.updated_by,
  };
}

function createWebhook(copy: DatasetCopy, form: FormBody, by: string, context: WriteContext): Webhook {
  const changes = readWebhookChanges(copy, form, true);
  // Fields left out take these values (docs/ems-api.md §8.1).
  const defaults: Webhook = {
    id: context.newWebhookId(),
    name: "",
    url: "",
    group_id: null,
    trigger_object: "registrant",
    trigger_on_insert: false,
    trigger_on_update: false,
    trigger_on_delete: false,
    public_user: false,
    admin_user: false,
    api_call: false,
    any_event: false,
    event_ids: [],
    enabled: true,
    content_type: "json",
    all_fields: false,
    use_default_fields: true,
    post_field_data: [],
    fields: [],
    custom_fields: [],
    headers: [],
    notes: null,
    created_at: context.now,
    created_by: by,
    updated_at: context.now,
    updated_by: by,
  };
  const webhook = webhookRow(defaults, changes, { updated_at: context.now, updated_by: by });
  copy.addWebhook(webhook.group_id === null ? null : copy.groupIndexOf(webhook.group_id)!, webhook);
  return webhook;
}

function requireWebhook(copy: DatasetCopy, id: number) {
  const found = copy.locateWebhook(id);
  if (!found) throw new SandboxHttpError(404, `No webhook with id ${id}.`);
  return found;
}

function updateWebhook(copy: DatasetCopy, id: number, form: FormBody, by: string, context: WriteContext): Webhook {
  const located = requireWebhook(copy, id);
  const changes = readWebhookChanges(copy, form, false);
  const webhook = webhookRow(located.webhook, changes, { updated_at: context.now, updated_by: by });
  if (webhook.group_id === located.webhook.group_id) {
    const list = [...copy.webhooksOf(located.groupIndex)];
    list[located.position] = webhook;
    copy.replaceWebhooks(located.groupIndex, list);
  } else {
    copy.moveWebhook(located, webhook.group_id === null ? null : copy.groupIndexOf(webhook.group_id)!, webhook);
  }
  return webhook;
}

function deleteWebhook(copy: DatasetCopy, id: number): void {
  const located = requireWebhook(copy, id);
  copy.replaceWebhooks(
    located.groupIndex,
    copy.webhooksOf(located.groupIndex).filter((webhook) => webhook.id !== id),
  );
}

// ---- webhook groups ---------------------------------------------------------------------------

const GROUP_FIELDS = ["name", "notification_emails", "headers"];

function readGroupChanges(form: FormBody, creating: boolean): Partial<Pick<WebhookGroup, "name" | "notification_emails" | "headers">> {
  const reader = new BodyReader(form, GROUP_FIELDS);
  const name = reader.text("name", { required: creating, max: 255 });
  const emails = reader.emails();
  const headers = reader.headers();
  reader.check();
  return {
    ...(name !== undefined ? { name } : {}),
    ...(emails !== undefined ? { notification_emails: emails } : {}),
    ...(headers !== undefined ? { headers } : {}),
  };
}

function groupRow(base: WebhookGroup, changes: Partial<WebhookGroup>, now: string, by: string): WebhookGroup {
  const merged = { ...base, ...changes };
  return { id: merged.id, name: merged.name, headers: merged.headers, notification_emails: merged.notification_emails, updated_at: now, updated_by: by };
}

function createGroup(copy: DatasetCopy, form: FormBody, by: string, context: WriteContext): WebhookGroup {
  const changes = readGroupChanges(form, true);
  const group = groupRow({ id: context.newGroupId(), name: "", headers: [], notification_emails: [], updated_at: context.now, updated_by: by }, changes, context.now, by);
  copy.addGroup(group);
  return group;
}

function requireGroupIndex(copy: DatasetCopy, id: number): number {
  const index = copy.groupIndexOf(id);
  if (index === undefined) throw new SandboxHttpError(404, `No webhook group with id ${id}.`);
  return index;
}

function updateGroup(copy: DatasetCopy, id: number, form: FormBody, by: string, context: WriteContext): WebhookGroup {
  const index = requireGroupIndex(copy, id);
  const changes = readGroupChanges(form, false);
  const group = groupRow(copy.groupAt(index), changes, context.now, by);
  copy.replaceGroup(index, group);
  return group;
}

function deleteGroup(copy: DatasetCopy, id: number): void {
  const index = requireGroupIndex(copy, id);
  const count = copy.webhooksOf(index).length;
  if (count > 0) {
    throw new ValidationFailed([
      { field: "id", message: `The group still has ${count} webhook${count === 1 ? "" : "s"}: move or delete ${count === 1 ? "it" : "them"} first.` },
    ]);
  }
  copy.removeGroup(index);
}
