import type { EmsHeader, Webhook, WebhookChanges, WebhookGroup, WebhookGroupChanges } from "@/lib/ems";
import { changedFields } from "./operations";

/** The kinds of bulk edit of webhooks and of groups: the forms' choices and the validation's list. */
export const WEBHOOK_BULK_KINDS = [
  "replace-host",
  "use-https",
  "set-header",
  "remove-header",
  "set-enabled",
  "add-events",
  "remove-events",
  "set-content-type",
  "move-to-group",
] as const satisfies readonly WebhookBulkEdit["kind"][];
export const GROUP_BULK_KINDS = ["set-notification-emails", "add-notification-email"] as const satisfies readonly GroupBulkEdit["kind"][];
export const BULK_KINDS = [...WEBHOOK_BULK_KINDS, ...GROUP_BULK_KINDS] as const;
// Both ways: a kind added to the edits' types and not listed here fails the build.
type Unlisted = Exclude<WebhookBulkEdit["kind"] | GroupBulkEdit["kind"], (typeof BULK_KINDS)[number]>;
const everyKindListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyKindListed;

/**
 * Bulk edits (issue 27 §2): one change applied to every record of a selection, each record getting
 * only the fields that change for it. Pure. A record the edit leaves as it is gets no operation.
 */
export type WebhookBulkEdit =
  | { kind: "replace-host"; from: string; to: string }
  | { kind: "use-https" }
  | { kind: "set-header"; key: string; value: string }
  | { kind: "remove-header"; key: string }
  | { kind: "set-enabled"; enabled: boolean }
  | { kind: "add-events"; eventIds: number[] }
  | { kind: "remove-events"; eventIds: number[] }
  | { kind: "set-content-type"; contentType: string }
  | { kind: "move-to-group"; groupId: number };

export type GroupBulkEdit = { kind: "set-notification-emails"; emails: string[] } | { kind: "add-notification-email"; email: string };

function withHost(url: string, from: string, to: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.host.toLowerCase() !== from.toLowerCase()) return url;
    return url.replace(/^(https?:\/\/)([^/?#]*@)?[^/?#]+/i, (_, scheme: string, userinfo: string | undefined) => `${scheme}${userinfo ?? ""}${to}`);
  } catch {
    return url;
  }
}

function setHeader(headers: readonly EmsHeader[], key: string, value: string): EmsHeader[] {
  const lower = key.toLowerCase();
  return headers.some((header) => header.key.toLowerCase() === lower)
    ? headers.map((header) => (header.key.toLowerCase() === lower ? { key: header.key, value } : header))
    : [...headers, { key, value }];
}

/** What `edit` changes on `hook`: the fields to send, or null when it changes nothing there. */
export function webhookBulkChanges(hook: Webhook, edit: WebhookBulkEdit): WebhookChanges | null {
  const after: WebhookChanges = {};
  switch (edit.kind) {
    case "replace-host":
      if (hook.url) after.url = withHost(hook.url, edit.from, edit.to);
      break;
    case "use-https":
      if (hook.url && /^http:\/\//i.test(hook.url)) after.url = `https://${hook.url.slice("http://".length)}`;
      break;
    case "set-header":
      after.headers = setHeader(hook.headers ?? [], edit.key, edit.value);
      break;
    case "remove-header":
      after.headers = (hook.headers ?? []).filter((header) => header.key.toLowerCase() !== edit.key.toLowerCase());
      break;
    case "set-enabled":
      after.enabled = edit.enabled;
      break;
    case "add-events":
      // A catch-all webhook already fires for every event.
      if (hook.any_event !== true) after.event_ids = [...new Set([...(hook.event_ids ?? []), ...edit.eventIds])];
      break;
    case "remove-events":
      if (hook.any_event !== true) after.event_ids = (hook.event_ids ?? []).filter((id) => !edit.eventIds.includes(id));
      break;
    case "set-content-type":
      after.content_type = edit.contentType;
      break;
    case "move-to-group":
      after.group_id = edit.groupId;
      break;
  }
  const changes = changedFields(hook as Record<string, unknown>, after);
  return Object.keys(changes).length > 0 ? changes : null;
}

export function groupBulkChanges(group: WebhookGroup, edit: GroupBulkEdit): WebhookGroupChanges | null {
  const emails = group.notification_emails ?? [];
  const after: WebhookGroupChanges =
    edit.kind === "set-notification-emails"
      ? { notification_emails: edit.emails }
      : { notification_emails: emails.some((email) => email.toLowerCase() === edit.email.toLowerCase()) ? emails : [...emails, edit.email] };
  const changes = changedFields(group as Record<string, unknown>, after);
  return Object.keys(changes).length > 0 ? changes : null;
}
