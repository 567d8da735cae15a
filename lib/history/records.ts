import { createHmac } from "node:crypto";
import type { EmsEvent, EmsHeader, Webhook, WebhookGroup } from "@/lib/ems";
import { SET_LIST_FIELDS, WEBHOOK_FIELDS } from "@/lib/ems/contract";
import type { SetupData } from "@/lib/setup/setup-data";

/**
 * An account's setup as change history keeps it: one flat record per webhook group, webhook and
 * event, each a map of field -> JSON value. Pure (the header hasher is passed in).
 *
 * - A field the API did not send is left out: unknown, not empty. The diff keeps the last known
 *   value for it rather than calling it a change (lib/history/diff.ts).
 * - Lists whose order means nothing (event ids, emails, fields sent) are sorted, so a reordering
 *   is no change.
 * - Header values are secrets. The state holds `{ key, hash }` (a keyed hash: equal values give
 *   equal hashes, and nothing about the value can be read from it); the values themselves travel
 *   beside it in `secrets`, which the store encrypts.
 * - A webhook's `updated_at` / `updated_by` are who and when of an edit, not a change of their own.
 */

export type RecordKind = "group" | "webhook" | "event";
export const RECORD_KINDS: readonly RecordKind[] = ["group", "webhook", "event"];

export type FieldValue = string | number | boolean | null | readonly FieldValue[] | { readonly [key: string]: FieldValue };
export type RecordState = Record<string, FieldValue>;
export type MaskedHeader = { key: string; hash: string };
/** Header values by field ("headers") as [key, value] pairs, in the order of the masked list. */
export type RecordSecrets = Record<string, [string, string][]>;

export interface SnapshotRecord {
  kind: RecordKind;
  id: number;
  /** A webhook's group (a group's own id; null for events). */
  groupId: number | null;
  name: string | null;
  state: RecordState;
  secrets: RecordSecrets;
  /** What the EMS says of the last edit, when it says (webhooks only). */
  updatedBy: string | null;
  updatedAt: string | null;
}

export type HeaderHasher = (value: string) => string;

/** A keyed hash of header values for one tracker: the same value hashes alike only within it. */
export function headerHasher(secret: string, trackerId: string): HeaderHasher {
  const key = createHmac("sha256", secret).update(`ems-portal/header-value/v1/${trackerId}`).digest();
  return (value) => createHmac("sha256", key).update(value, "utf8").digest("hex").slice(0, 24);
}

export const recordKey = (kind: RecordKind, id: number): string => `${kind}:${id}`;

/**
 * The contract's webhook fields a change is recorded for: not the id, nor the group (the one it is
 * nested in, set separately), nor the headers (masked separately), nor who and when of the last edit.
 */
const NOT_TRACKED = new Set([
  "id",
  "group_id",
  "headers",
  "created_at",
  "created_by",
  "updated_at",
  "updated_by",
  // Newer fields of the contract (§4.1a): tracking them would report every webhook as changed at the
  // first sync after an upgrade; they are read (plans, lib/ems writes) but not recorded yet.
  "post_field_data",
  "custom_fields",
]);
const TRACKED_WEBHOOK_FIELDS = WEBHOOK_FIELDS.filter((field) => !NOT_TRACKED.has(field)) as readonly (keyof Webhook)[];

const EVENT_FIELDS = ["name", "status", "start_date", "end_date", "start_time", "end_time", "timezone"] as const satisfies readonly (keyof EmsEvent)[];

const SORTED_LISTS: ReadonlySet<string> = new Set(SET_LIST_FIELDS);

/** A field's value as history keeps it: lists whose order means nothing sorted. */
export function historyValue(field: string, value: unknown): FieldValue {
  if (Array.isArray(value) && SORTED_LISTS.has(field)) return [...(value as (string | number)[])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return value as FieldValue;
}

/** Header values as history keeps them: [key, value] pairs sorted by key (ignoring case), then value. */
export function historyHeaderPairs(headers: readonly EmsHeader[]): [string, string][] {
  const pairs = headers.map((header) => [header.key, header.value] as [string, string]);
  return pairs.sort(([a, av], [b, bv]) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
}

function put(state: RecordState, field: string, value: unknown): void {
  if (value !== undefined) state[field] = historyValue(field, value);
}

function putHeaders(state: RecordState, secrets: RecordSecrets, headers: EmsHeader[] | undefined, hash: HeaderHasher): void {
  if (headers === undefined) return;
  const pairs = historyHeaderPairs(headers);
  state.headers = pairs.map(([key, value]) => ({ key, hash: hash(value) }));
  secrets.headers = pairs;
}

function groupRecord(group: WebhookGroup, hash: HeaderHasher): SnapshotRecord {
  const state: RecordState = {};
  const secrets: RecordSecrets = {};
  put(state, "name", group.name);
  put(state, "notification_emails", group.notification_emails);
  putHeaders(state, secrets, group.headers, hash);
  return { kind: "group", id: group.id, groupId: group.id, name: group.name ?? null, state, secrets, updatedBy: null, updatedAt: null };
}

function webhookRecord(hook: Webhook, groupId: number, hash: HeaderHasher): SnapshotRecord {
  const state: RecordState = { group_id: groupId };
  const secrets: RecordSecrets = {};
  for (const field of TRACKED_WEBHOOK_FIELDS) put(state, field, hook[field]);
  putHeaders(state, secrets, hook.headers, hash);
  return { kind: "webhook", id: hook.id, groupId, name: hook.name ?? null, state, secrets, updatedBy: hook.updated_by ?? null, updatedAt: hook.updated_at ?? null };
}

function eventRecord(event: EmsEvent): SnapshotRecord {
  const state: RecordState = {};
  for (const field of EVENT_FIELDS) put(state, field, event[field]);
  return { kind: "event", id: event.id, groupId: null, name: event.name ?? null, state, secrets: {}, updatedBy: null, updatedAt: event.updated_at ?? null };
}

/** Every record of the setup: groups, the webhooks inside them (each once), then events. */
export function snapshotRecords(setup: SetupData, hash: HeaderHasher): SnapshotRecord[] {
  const records: SnapshotRecord[] = [];
  const seenHooks = new Set<number>();
  for (const group of setup.groups) {
    records.push(groupRecord(group, hash));
    for (const hook of group.webhooks ?? []) {
      if (seenHooks.has(hook.id)) continue;
      seenHooks.add(hook.id);
      records.push(webhookRecord(hook, group.id, hash));
    }
  }
  for (const event of setup.events) records.push(eventRecord(event));
  return records;
}

/** JSON with object keys sorted: equal states give equal text, whatever order the fields came in. */
export function stableJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  const entries = Object.keys(value as object)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(",")}}`;
}
