import { fieldLabel, listingConfig } from "./resources";
import { formatEventLocal, formatUtcInZone, plainValue } from "./format";
import type { ListingState } from "./search-params";
import type { EmsResource } from "@/lib/ems/contract";
import { TRIGGER_LETTERS } from "./trigger-letters";
import { webhookEventCount, webhookFiring, webhookHost, NEVER_FIRES_WORDS } from "@/lib/setup/webhook-status";
import { plural } from "@/lib/text/plural";

/**
 * A listing's rows as compact data for the table's client body (components/listing/listing-rows):
 * every value already formatted on the server (time zones included, so the browser's Intl data can
 * never disagree with the server's during hydration), one short array per row. The page's RSC
 * payload then carries the data once instead of a tree of elements per cell; for 140 groups with
 * their webhooks that is the difference between about 1.1 MB and 0.3 MB of HTML.
 */

/** How a column's cells look. */
export type CellKind =
  /** The row's own link (the id, or else the name): stretched over the whole row. */
  | "link"
  | "text"
  /** A list cut to two entries and "+N". */
  | "list"
  /** The same, in a monospace font (header names). */
  | "code-list"
  | "status"
  /** A value that may be absent, shown as a dash. */
  | "optional"
  /** A webhook's group: [id, name], linked to the group. */
  | "group"
  /** A webhook's trigger: [object, letters of its actions ("iud")]. */
  | "trigger"
  /** A webhook's target host (never the path: it may hold a token). */
  | "host"
  /** A webhook's status: [state, worst severity of its findings or "", findings in words, why]. */
  | "firing"
  /** [when (UTC), by whom]. */
  | "stamp"
  /** A group's webhooks in short: [count, enabled/disabled, hosts…]. */
  | "contents"
  /** A short count in words ("3 events", "All events"), on one line. */
  | "count";

export interface TableColumn {
  field: string;
  label: string;
  kind: CellKind;
}

/** A cell: text, a list, or nothing (null). */
export type TableCell = string | string[] | null;

/**
 * One webhook of a group, in one line: [name, url, trigger object, triggers, enabled]. The triggers
 * are letters, "i" insert, "u" update, "d" delete (e.g. "iu"): 511 webhooks write them out in words
 * in the browser, not in the page's data.
 */
export type WebhookLine = [name: string, url: string, triggerObject: string, triggers: string, enabled: boolean, id: string];

export interface TableRow {
  /** Absent when the API sent a row without one: the row then links nowhere. */
  id?: string;
  cells: TableCell[];
  /** Changed since the reader last looked (lib/history/marks). */
  changed?: true;
  /** With `expand=webhooks`: the group's webhooks. */
  webhooks?: WebhookLine[];
  /** Their caption's name, when the name column is hidden (else it is a cell already). */
  name?: string;
}

export interface TableData {
  resource: EmsResource;
  columns: TableColumn[];
  rows: TableRow[];
}

type Item = Record<string, unknown>;

/** Unmuted findings of one record by severity (lib/health), as the listing needs them. */
export interface FindingCounts {
  errors: number;
  warnings: number;
  notices: number;
}

/**
 * What a webhook's row shows beyond the webhook itself, from the account's setup (lib/health's
 * report): its group's name and its findings. Null parts are unknown (the setup could not be read):
 * the row then shows the group's id and no findings.
 */
export interface WebhookRowContext {
  groupNames: ReadonlyMap<number, string> | null;
  findings: ReadonlyMap<number, FindingCounts> | null;
}

/** What a group's "Contents" cell says: [webhooks in words, enabled/disabled in words, hosts…]. */
function groupContents(item: Item): string[] {
  const hooks = Array.isArray(item.webhooks) ? (item.webhooks as Item[]) : [];
  const disabled = hooks.filter((hook) => hook.enabled === false).length;
  const hosts = [...new Set(hooks.map((hook) => webhookHost(typeof hook.url === "string" ? hook.url : undefined)).filter(Boolean))];
  const state =
    hooks.length === 0 ? "" : disabled === 0 ? "all enabled" : disabled === hooks.length ? "all disabled" : `${hooks.length - disabled} enabled, ${disabled} disabled`;
  return [plural(hooks.length, "webhook"), state, ...hosts];
}

/** The column the groups list adds after the chosen ones: what is in each group (from `expand=webhooks`). */
export const GROUP_CONTENTS_COLUMN: TableColumn = { field: "webhooks", label: "Contents", kind: "contents" };

const WEBHOOK_KINDS: Readonly<Record<string, CellKind>> = {
  group_id: "group",
  trigger_object: "trigger",
  url: "host",
  enabled: "firing",
  updated_at: "stamp",
  created_at: "stamp",
  headers: "code-list",
  fields: "list",
  post_field_data: "list",
  event_ids: "count",
};

/** The column whose text links to the row's page: the id, or else the name. */
function linkField(fields: readonly string[]): string | undefined {
  return fields.includes("id") ? "id" : fields.includes("name") ? "name" : undefined;
}

function kindOf(resource: EmsResource, field: string, linked: string | undefined): CellKind {
  if (field === linked) return "link";
  if (resource === "webhooks") return Object.hasOwn(WEBHOOK_KINDS, field) ? WEBHOOK_KINDS[field] : "text";
  if (resource === "webhook-groups") {
    if (field === "headers") return "code-list";
    if (field === "notification_emails") return "list";
    return "text";
  }
  if (field === "status") return "status";
  if (field === "capacity" || field === "type_id" || field === "folder_id") return "optional";
  return "text";
}

const isYes = (value: unknown) => value === true || value === 1 || value === "1";

/** "2 errors, 1 warning" and the worst severity, for the status cell; notices count only when alone. */
export function findingsInWords(counts: FindingCounts | undefined): { severity: "error" | "warning" | "notice" | ""; words: string } {
  if (!counts) return { severity: "", words: "" };
  const parts = [counts.errors ? plural(counts.errors, "error") : "", counts.warnings ? plural(counts.warnings, "warning") : ""].filter(Boolean);
  if (parts.length > 0) return { severity: counts.errors ? "error" : "warning", words: parts.join(", ") };
  return counts.notices ? { severity: "notice", words: plural(counts.notices, "notice") } : { severity: "", words: "" };
}

function webhookCell(kind: CellKind, field: string, item: Item, context: WebhookRowContext | undefined): TableCell | undefined {
  const value = item[field];
  switch (kind) {
    case "group": {
      const id = Number(value);
      if (value === undefined || value === null || !Number.isFinite(id)) return null;
      return [String(id), context?.groupNames?.get(id) ?? `Group ${id}`];
    }
    case "trigger":
      return [plainValue(value), triggerLetters(item)];
    case "host":
      return webhookHost(typeof value === "string" ? value : undefined);
    case "firing": {
      const firing = webhookFiring(item);
      const { severity, words } = findingsInWords(context?.findings?.get(Number(item.id)));
      const why = firing.state === "never-fires" ? firing.reasons.map((reason) => NEVER_FIRES_WORDS[reason]).join("; ") : "";
      return [firing.state, severity, words, why];
    }
    case "stamp": {
      const by = item[field === "created_at" ? "created_by" : "updated_by"];
      return [formatUtcInZone(value, "UTC"), plainValue(by)];
    }
    default:
      // The API's lowercase values as people read them (as on the webhook's page).
      if (field === "content_type") return value === "json" ? "JSON" : value === "post" ? "Form post" : plainValue(value);
      if (field === "event_ids") {
        const count = webhookEventCount(item);
        return count === "all" ? "All events" : count === null ? "" : count === 0 ? "No events" : plural(count, "event");
      }
      return undefined;
  }
}

function triggerLetters(hook: Item): string {
  return Object.entries(TRIGGER_LETTERS)
    .filter(([, what]) => isYes(hook[`trigger_on_${what}`]))
    .map(([letter]) => letter)
    .join("");
}

function cellOf(resource: EmsResource, kind: CellKind, field: string, item: Item, context?: WebhookRowContext): TableCell {
  if (resource === "webhooks") {
    const cell = webhookCell(kind, field, item, context);
    if (cell !== undefined) return cell;
  }
  const value = item[field];
  switch (kind) {
    case "code-list":
      return Array.isArray(value) ? value.map((header: { key?: unknown } | null) => plainValue(header?.key)) : [];
    case "list":
      return Array.isArray(value) ? value.map(plainValue) : [];
    case "optional":
      return value === null || value === undefined ? null : plainValue(value);
    default:
      break;
  }
  if (resource === "events") {
    if (field === "start_date") return formatEventLocal(value, item.start_time, item.timezone);
    if (field === "end_date") return formatEventLocal(value, item.end_time, item.timezone);
    if (field === "created_at" || field === "updated_at") return formatUtcInZone(value, item.timezone);
    if (field === "free_event") return isYes(value) ? "Yes" : value === 0 || value === false || value === "0" ? "No" : "";
  }
  return plainValue(value);
}

function webhookLine(hook: Item): WebhookLine {
  return [plainValue(hook.name), plainValue(hook.url), plainValue(hook.trigger_object), triggerLetters(hook), isYes(hook.enabled), plainValue(hook.id)];
}

export function tableData(state: ListingState, items: Item[], changed?: ReadonlySet<number>, context?: WebhookRowContext): TableData {
  const config = listingConfig(state.resource);
  const linked = linkField(state.fields);
  const columns: TableColumn[] = state.fields.map((field) => ({ field, label: fieldLabel(config, field), kind: kindOf(state.resource, field, linked) }));
  // Collapsed, a group says what is in it; expanded, its webhook lines say it all.
  if (state.resource === "webhook-groups" && !state.expand.includes("webhooks")) columns.push(GROUP_CONTENTS_COLUMN);
  const withWebhooks = state.resource === "webhook-groups" && state.expand.includes("webhooks");
  const rows = items.map((item): TableRow => {
    const row: TableRow = {
      cells: columns.map((column) => (column.kind === "contents" ? groupContents(item) : cellOf(state.resource, column.kind, column.field, item, context))),
    };
    if (item.id !== undefined && item.id !== null) row.id = plainValue(item.id);
    if (changed?.has(Number(item.id))) row.changed = true;
    if (withWebhooks) {
      // lib/ems/responses.ts has made `webhooks` a list already, whichever form the API sent.
      row.webhooks = (Array.isArray(item.webhooks) ? (item.webhooks as Item[]) : []).map(webhookLine);
      if (!state.fields.includes("name")) row.name = plainValue(item.name);
    }
    return row;
  });
  return { resource: state.resource, columns, rows };
}
