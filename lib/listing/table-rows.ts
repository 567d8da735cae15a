import { fieldLabel, listingConfig } from "./resources";
import { formatEventLocal, formatUtcInZone, plainValue } from "./format";
import type { ListingState } from "./search-params";
import type { EmsResource } from "@/lib/ems/contract";
import { TRIGGER_LETTERS } from "./trigger-letters";

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
  | "optional";

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
export type WebhookLine = [name: string, url: string, triggerObject: string, triggers: string, enabled: boolean];

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

/** The column whose text links to the row's page: the id, or else the name. */
function linkField(fields: readonly string[]): string | undefined {
  return fields.includes("id") ? "id" : fields.includes("name") ? "name" : undefined;
}

function kindOf(resource: EmsResource, field: string, linked: string | undefined): CellKind {
  if (field === linked) return "link";
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

function cellOf(resource: EmsResource, kind: CellKind, field: string, item: Item): TableCell {
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
  const triggers = Object.entries(TRIGGER_LETTERS).filter(([, what]) => isYes(hook[`trigger_on_${what}`]));
  return [plainValue(hook.name), plainValue(hook.url), plainValue(hook.trigger_object), triggers.map(([letter]) => letter).join(""), isYes(hook.enabled)];
}

export function tableData(state: ListingState, items: Item[], changed?: ReadonlySet<number>): TableData {
  const config = listingConfig(state.resource);
  const linked = linkField(state.fields);
  const columns = state.fields.map((field) => ({ field, label: fieldLabel(config, field), kind: kindOf(state.resource, field, linked) }));
  const withWebhooks = state.resource === "webhook-groups" && state.expand.includes("webhooks");
  const rows = items.map((item): TableRow => {
    const row: TableRow = { cells: columns.map((column) => cellOf(state.resource, column.kind, column.field, item)) };
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
