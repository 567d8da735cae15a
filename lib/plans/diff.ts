import type { EmsHeader } from "@/lib/ems";
import { deliveryWarnings, type GroupHeaders } from "./delivery-warnings";
import { resourceOf, verbOf, type DraftOperation, type OperationVerb, type PlanResource } from "./operations";

/**
 * A drafted operation in words, for the plan page: what it does to which record, and each field that
 * changes, before → after. Pure. Header values are credentials: a header shows its name and whether
 * its value stays, is new or is removed, never the value itself.
 */

export interface FieldDiff {
  field: string;
  label: string;
  /** null: the field did not exist (a create) or is gone (a removed header list entry). */
  before: string | null;
  after: string | null;
}

export interface OperationDiff {
  verb: OperationVerb;
  resource: PlanResource;
  /** null for a create not applied yet. */
  recordId: number | null;
  name: string;
  /** The group it is in (after the change): the plan page groups its operations by it. */
  groupId: number | null;
  fields: FieldDiff[];
  /** "Change the URL and enabled of webhook “Orders” (#411)" */
  sentence: string;
  /** Where its deliveries go that a reviewer must not miss (lib/plans/delivery-warnings.ts). */
  warnings: string[];
}

const LABELS: Readonly<Record<string, string>> = {
  name: "Name",
  url: "URL",
  group_id: "Group",
  trigger_object: "Trigger object",
  trigger_on_insert: "On insert",
  trigger_on_update: "On update",
  trigger_on_delete: "On delete",
  public_user: "Public user",
  admin_user: "Admin user",
  api_call: "API call",
  any_event: "All events",
  event_ids: "Events",
  enabled: "Enabled",
  content_type: "Content type",
  all_fields: "All fields",
  use_default_fields: "Default fields",
  post_field_data: "Post field data",
  fields: "Fields",
  custom_fields: "Custom fields",
  headers: "Headers",
  notes: "Notes",
  notification_emails: "Notification emails",
};

export const fieldLabel = (field: string) => LABELS[field] ?? field.replace(/_/g, " ");

/** The word for an empty value ("no headers", "no events"): the plan page shows it plainly, not struck through as a value removed. */
export const NOTHING = "none";

type Names = { group?: (id: number) => string | undefined; event?: (id: number) => string | undefined; groupHeaders?: GroupHeaders };

function words(field: string, value: unknown, names: Names): string {
  if (value === null || value === undefined) return NOTHING;
  if (typeof value === "boolean") return value ? "on" : "off";
  if (field === "group_id" && typeof value === "number") return groupWords(value, names);
  if (field === "event_ids" && Array.isArray(value)) {
    if (value.length === 0) return NOTHING;
    return value.map((id) => (names.event?.(Number(id)) ? `${names.event(Number(id))} (#${id})` : `#${id}`)).join(", ");
  }
  if (field === "custom_fields" && Array.isArray(value)) {
    return value.length === 0 ? NOTHING : value.map((entry) => `${(entry as { key: string }).key} (${(entry as { type: string }).type})`).join(", ");
  }
  if (Array.isArray(value)) return value.length === 0 ? NOTHING : value.map(String).join(", ");
  return String(value);
}

function groupWords(id: number, names: Names): string {
  const name = names.group?.(id);
  return name ? `${name} (#${id})` : `group #${id}`;
}

/** Header lists by name: which are added, removed, given a new value, or kept. */
export function headerDiff(before: readonly EmsHeader[], after: readonly EmsHeader[]): FieldDiff | null {
  const old = new Map(before.map((header) => [header.key.toLowerCase(), header]));
  const now = new Map(after.map((header) => [header.key.toLowerCase(), header]));
  const afterWords = after.map((header) => {
    const was = old.get(header.key.toLowerCase());
    if (!was) return `${header.key} (added)`;
    return was.value === header.value ? header.key : `${header.key} (new value)`;
  });
  const removed = before.filter((header) => !now.has(header.key.toLowerCase())).map((header) => `${header.key} (removed)`);
  const changed = afterWords.some((text) => text.endsWith(")")) || removed.length > 0 || before.map((h) => h.key).join("\n") !== after.map((h) => h.key).join("\n");
  if (!changed) return null;
  const beforeWords = before.map((header) => header.key);
  return {
    field: "headers",
    label: LABELS.headers,
    before: beforeWords.length ? beforeWords.join(", ") : NOTHING,
    after: [...afterWords, ...removed].join(", ") || NOTHING,
  };
}

function nameOf(op: DraftOperation): string {
  const sent = (op.changes as { name?: string }).name;
  return op.before?.name ?? sent ?? `#${op.recordId ?? "new"}`;
}

/** "Enabled" → "enabled", but "URL" and "API call" keep their capitals. */
function inSentence(label: string): string {
  const first = label.split(" ")[0];
  return first === first.toUpperCase() ? label : label[0].toLowerCase() + label.slice(1);
}

function listInWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

export function describeOperation(op: DraftOperation, names: Names = {}): OperationDiff {
  const verb = verbOf(op.operation);
  const resource = resourceOf(op.operation);
  const noun = resource === "webhooks" ? "webhook" : "webhook group";
  const name = nameOf(op);
  const before = (op.before ?? {}) as Record<string, unknown>;
  const changes = op.changes as Record<string, unknown>;
  const fields: FieldDiff[] = [];
  if (verb !== "delete") {
    for (const [field, value] of Object.entries(changes)) {
      if (value === undefined) continue;
      if (field === "headers") {
        const diff = headerDiff(verb === "create" ? [] : ((before.headers as EmsHeader[]) ?? []), value as EmsHeader[]);
        if (diff) fields.push(verb === "create" ? { ...diff, before: null } : diff);
        continue;
      }
      fields.push({ field, label: fieldLabel(field), before: verb === "create" ? null : words(field, before[field], names), after: words(field, value, names) });
    }
  }
  const groupAfter =
    resource === "webhook-groups" ? (op.recordId ?? null) : "group_id" in changes ? (changes.group_id as number | null) : ((before.group_id as number | null) ?? null);
  const quoted = `${noun} “${name}”${op.recordId ? ` (#${op.recordId})` : ""}`;
  const sentence =
    verb === "create"
      ? `Create ${quoted}`
      : verb === "delete"
        ? `Delete ${quoted}`
        : `Change the ${listInWords(fields.map((field) => inSentence(field.label)))} of ${quoted}`;
  return { verb, resource, recordId: op.recordId ?? null, name, groupId: groupAfter ?? null, fields, sentence, warnings: deliveryWarnings(op, names.groupHeaders) };
}
