import type { EmsHeader, Webhook, WebhookGroup } from "@/lib/ems";
import { historyHeaderPairs, historyValue, type FieldValue, type RecordState } from "@/lib/history/records";
import type { PastRecordWithSecrets } from "@/lib/history/store";
import type { PlanEdit, WebhookValues } from "./edits";
import { NOT_WRITABLE, sameField, sameValue } from "./operations";

/**
 * Putting a group back as it was at a past time (issue 27 §2, undo "as of"): the edits that turn the
 * group and its webhooks as the EMS holds them now into what change history says they were. Pure.
 *
 * - The group's name, notification addresses and headers (values included) go back.
 * - Each webhook it had then: its fields back (and into this group, if it moved out), or created
 *   again if it is gone (the EMS gives it a new id).
 * - Each webhook it has now but did not have then: moved back to the group it was in then, if that
 *   group still exists, else deleted.
 * - History keeps some lists sorted (lib/history/records.ts): a list that differs only in order is
 *   no change. A field history does not know (it was not read then) is left as it is.
 * - Header values history did not record are left as they are, and said (`headersUnknown`).
 */

export interface RecordsToday {
  /** The group now, with its webhooks' ids. */
  group: WebhookGroup;
  /** A webhook as the EMS holds it now (header values included), wherever it is. */
  webhook(id: number): Webhook | undefined;
  /** Whether a group exists now (where a webhook that moved in goes back to). */
  groupExists(id: number): boolean;
}

export interface BackTo {
  edits: PlanEdit[];
  /** Records whose past header values were not recorded: their headers are left as they are. */
  headersUnknown: string[];
}

type Past = ReadonlyMap<string, PastRecordWithSecrets>;

/** The webhooks the group had then, by id (history's state says each one's group). */
export function pastMembers(past: Past, groupId: number): PastRecordWithSecrets[] {
  return [...past.values()].filter((record) => record.kind === "webhook" && record.state.group_id === groupId).sort((a, b) => a.id - b.id);
}

/** The header list as it was, or undefined when its values were not recorded. */
function pastHeaders(record: PastRecordWithSecrets): EmsHeader[] | undefined {
  const masked = record.state.headers;
  if (!Array.isArray(masked)) return undefined;
  if (masked.length === 0) return [];
  return record.secrets.headers?.map(([key, value]) => ({ key, value }));
}

/** The past values of the writable fields that differ from `now` (headers apart). */
function fieldsBack(state: RecordState, now: Record<string, unknown> | null): Record<string, FieldValue> {
  const back: Record<string, FieldValue> = {};
  for (const [field, value] of Object.entries(state)) {
    if (field === "headers" || (NOT_WRITABLE as readonly string[]).includes(field)) continue;
    if (now && sameField(field, historyValue(field, now[field]), value)) continue;
    back[field] = value;
  }
  return back;
}

/** The header list to send back, if it differs from `now`'s (compared as history keeps them). */
function headersBack(record: PastRecordWithSecrets, now: readonly EmsHeader[] | null, unknown: string[], label: string): { exactHeaders?: EmsHeader[] } {
  const then = pastHeaders(record);
  if (then === undefined) {
    if (Array.isArray(record.state.headers)) unknown.push(label);
    return {};
  }
  if (now && sameValue(historyHeaderPairs(now), historyHeaderPairs(then))) return {};
  return { exactHeaders: inOrderOf(then, now ?? []) };
}

/** History keeps headers sorted; the ones the record still has keep today's order, the rest follow. */
function inOrderOf(then: EmsHeader[], now: readonly EmsHeader[]): EmsHeader[] {
  const place = new Map(now.map((header, index) => [header.key.toLowerCase(), index]));
  const rank = (header: EmsHeader) => place.get(header.key.toLowerCase()) ?? now.length;
  return then
    .map((header, index) => ({ header, index }))
    .sort((a, b) => rank(a.header) - rank(b.header) || a.index - b.index)
    .map(({ header }) => header);
}

const labelOf = (kind: string, record: PastRecordWithSecrets) => `${kind} “${record.name ?? record.id}”`;

export function editsBackTo(groupId: number, past: Past, today: RecordsToday): BackTo {
  const group = past.get(`group:${groupId}`);
  if (!group) throw new Error(`group ${groupId} is not in the past state`);
  const edits: PlanEdit[] = [];
  const headersUnknown: string[] = [];

  const groupValues = {
    ...fieldsBack(group.state, today.group as unknown as Record<string, unknown>),
    ...headersBack(group, today.group.headers ?? [], headersUnknown, labelOf("group", group)),
  };
  if (Object.keys(groupValues).length > 0) edits.push({ kind: "group.update", id: groupId, values: groupValues });

  const then = pastMembers(past, groupId);
  for (const record of then) {
    const hook = today.webhook(record.id);
    const values: Record<string, unknown> = {
      ...fieldsBack(record.state, (hook as unknown as Record<string, unknown>) ?? null),
      ...headersBack(record, hook ? (hook.headers ?? []) : null, headersUnknown, labelOf("webhook", record)),
    };
    if (hook && (hook.group_id ?? groupId) === groupId) delete values.group_id;
    if (!hook) edits.push({ kind: "webhook.create", values: { ...values, group_id: groupId } as Extract<PlanEdit, { kind: "webhook.create" }>["values"] });
    else if (Object.keys(values).length > 0) edits.push({ kind: "webhook.update", id: record.id, values: values as WebhookValues });
  }

  const members = new Set(then.map((record) => record.id));
  for (const hook of today.group.webhooks ?? []) {
    if (members.has(hook.id)) continue;
    const home = past.get(`webhook:${hook.id}`)?.state.group_id;
    if (typeof home === "number" && home !== groupId && today.groupExists(home)) edits.push({ kind: "webhook.update", id: hook.id, values: { group_id: home } });
    else edits.push({ kind: "webhook.delete", id: hook.id });
  }
  return { edits, headersUnknown };
}
