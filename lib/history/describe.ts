import type { FieldValue, MaskedHeader, RecordKind } from "./records";

/**
 * One change in words, for the Changes feed, the timelines and the alerts. Pure. Header values are
 * never shown (the feed says a value changed, not what it is); `forAlert` also keeps URLs to their
 * scheme and host, since an alert leaves the portal and a path may carry a token (Slack, Zapier).
 */

export interface DescribedChange {
  kind: RecordKind;
  recordId: number;
  recordName: string | null;
  groupId: number | null;
  groupName: string | null;
  change: "added" | "removed" | "changed";
  field: string | null;
  before: unknown;
  after: unknown;
}

const KIND_LABEL: Record<RecordKind, string> = { group: "Webhook group", webhook: "Webhook", event: "Event" };

export const FIELD_LABELS: Record<string, string> = {
  name: "name",
  url: "URL",
  group_id: "group",
  trigger_object: "trigger object",
  trigger_on_insert: "sends inserts",
  trigger_on_update: "sends updates",
  trigger_on_delete: "sends deletions",
  public_user: "fires on changes by public users",
  admin_user: "fires on changes by admin users",
  api_call: "fires on changes by API calls",
  any_event: "fires for every event",
  event_ids: "events",
  enabled: "enabled",
  content_type: "content type",
  all_fields: "sends all fields",
  use_default_fields: "sends the default fields",
  fields: "fields sent",
  headers: "headers",
  notes: "notes",
  notification_emails: "notification emails",
  status: "status",
  start_date: "start date",
  end_date: "end date",
  start_time: "start time",
  end_time: "end time",
  timezone: "time zone",
};

export function fieldLabel(field: string): string {
  return FIELD_LABELS[field] ?? field.replaceAll("_", " ");
}

/** "Webhook “CRM sync” (#12) in group “Finance ledger”". */
export function subjectOf(change: Pick<DescribedChange, "kind" | "recordId" | "recordName" | "groupId" | "groupName">): string {
  const name = change.recordName ? `“${change.recordName}” (#${change.recordId})` : `#${change.recordId}`;
  const group = change.kind === "webhook" && change.groupId !== null ? ` in group ${change.groupName ? `“${change.groupName}”` : `#${change.groupId}`}` : "";
  return `${KIND_LABEL[change.kind]} ${name}${group}`;
}

const MAX_LIST = 6;
const MAX_TEXT = 120;

function clip(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
}

function urlForAlert(url: string): string {
  const match = /^\s*([a-z][a-z0-9+.-]*:\/\/[^/?#\\]*)/i.exec(url);
  if (!match) return "(a URL)";
  const authority = match[1]!.replace(/\/\/[^@/]*@/, "//");
  return url.length > match[0].length ? `${authority}/…` : authority;
}

/** A field's value in words (never a header value). */
export function valueText(field: string, value: unknown, options: { forAlert?: boolean } = {}): string {
  if (value === null || value === undefined) return "nothing";
  if (field === "headers") return headerNames(value as MaskedHeader[]);
  if (typeof value === "boolean") return value ? "yes" : "no";
  // Credentials in a URL's authority are never shown; in an alert, the path and query neither.
  if (field === "url" && typeof value === "string") return options.forAlert ? urlForAlert(value) : clip(value.replace(/^(\s*[a-z][a-z0-9+.-]*:\/\/)[^@/?#\\]*@/i, "$1"));
  if (field === "group_id") return `group #${String(value)}`;
  if (Array.isArray(value)) {
    if (value.length === 0) return "none";
    const shown = value.slice(0, MAX_LIST).map((item) => (field === "event_ids" ? `#${String(item)}` : String(item)));
    return value.length > MAX_LIST ? `${shown.join(", ")} and ${value.length - MAX_LIST} more` : shown.join(", ");
  }
  if (typeof value === "object") return "(a value)";
  const text = String(value);
  return text === "" ? "empty" : `“${clip(text)}”`;
}

function headerNames(headers: MaskedHeader[] | null | undefined): string {
  if (!headers || headers.length === 0) return "none";
  return headers.map((header) => header.key).join(", ");
}

/** What happened to the headers, by name: added, removed, value changed (values never shown). */
export function headerChanges(before: MaskedHeader[] | null | undefined, after: MaskedHeader[] | null | undefined): string {
  const old = new Map((before ?? []).map((header) => [header.key.toLowerCase(), header]));
  const now = new Map((after ?? []).map((header) => [header.key.toLowerCase(), header]));
  const parts: string[] = [];
  for (const [name, header] of now) {
    const previous = old.get(name);
    if (!previous) parts.push(`header ${header.key} added`);
    else if (previous.hash !== header.hash) parts.push(`value of header ${header.key} changed`);
  }
  for (const [name, header] of old) if (!now.has(name)) parts.push(`header ${header.key} removed`);
  return parts.length > 0 ? parts.join("; ") : "headers reordered";
}

/** What changed, without the subject: "URL changed from … to …", "added", "disabled". */
export function whatChanged(change: DescribedChange, options: { forAlert?: boolean } = {}): string {
  if (change.change === "added") return "added";
  if (change.change === "removed") return "removed";
  const field = change.field ?? "";
  if (field === "enabled" && typeof change.after === "boolean") return change.after ? "enabled" : "disabled";
  if (field === "headers") return headerChanges(change.before as MaskedHeader[] | null, change.after as MaskedHeader[] | null);
  if (field === "group_id") return `moved from ${valueText(field, change.before)} to ${valueText(field, change.after)}`;
  return `${fieldLabel(field)} changed from ${valueText(field, change.before, options)} to ${valueText(field, change.after, options)}`;
}

/** The whole sentence: "Webhook “CRM sync” (#12) in group “Finance ledger”: URL changed from … to …". */
export function describeChange(change: DescribedChange, options: { forAlert?: boolean } = {}): string {
  return `${subjectOf(change)}: ${whatChanged(change, options)}`;
}

export type { FieldValue };
