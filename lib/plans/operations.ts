import type { EmsHeader, Webhook, WebhookGroup, WriteOperation } from "@/lib/ems";
import { SET_LIST_FIELDS } from "@/lib/ems/contract";
import type { StepChanges } from "./steps";

/**
 * A drafted operation: one write of docs/ems-api.md §8 with the record as it was read when the plan
 * was made. Pure data, shared by the diff, the impact, the simulation and undo. `before` holds header
 * values (they are credentials): it is stored encrypted and never rendered.
 */
export interface DraftOperation {
  operation: WriteOperation;
  /** The record an update or delete is for (for a create: the record made, once known). */
  recordId?: number;
  /** The record when the plan was made; null for a create. */
  before: Webhook | WebhookGroup | null;
  /** What is sent: every field for a create, the changed ones for an update, nothing for a delete. */
  changes: StepChanges;
}

export type PlanResource = "webhooks" | "webhook-groups";
export type OperationVerb = "create" | "update" | "delete";

export function resourceOf(operation: WriteOperation | string): PlanResource {
  return operation.startsWith("webhook-groups.") ? "webhook-groups" : "webhooks";
}

export function verbOf(operation: WriteOperation | string): OperationVerb {
  return operation.endsWith(".create") ? "create" : operation.endsWith(".delete") ? "delete" : "update";
}

/** Header lists compared as HTTP does: keys ignoring case, values exactly, order kept. */
export function sameHeaders(left: readonly EmsHeader[] | undefined, right: readonly EmsHeader[] | undefined): boolean {
  const a = left ?? [];
  const b = right ?? [];
  return a.length === b.length && a.every((header, index) => header.key.toLowerCase() === b[index].key.toLowerCase() && header.value === b[index].value);
}

/** Deep equality of two field values as the EMS holds them (lists in order). */
export function sameValue(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (left == null || right == null) return (left ?? null) === (right ?? null);
  if (Array.isArray(left) && Array.isArray(right)) return left.length === right.length && left.every((item, index) => sameValue(item, right[index]));
  if (typeof left === "object" && typeof right === "object") {
    const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
    return [...keys].every((key) => sameValue((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key]));
  }
  return false;
}

const SETS: ReadonlySet<string> = new Set(SET_LIST_FIELDS);

/** The same entries, whatever their order and however often each is there. */
function sameMembers(left: readonly unknown[], right: readonly unknown[]): boolean {
  const a = new Set(left);
  const b = new Set(right);
  return a.size === b.size && [...a].every((entry) => b.has(entry));
}

/**
 * Whether two values of one field mean the same to the EMS: headers as HTTP compares them, a list
 * that is a set (SET_LIST_FIELDS) by its entries, anything else exactly. The one comparison of what
 * an edit sends (changedFields) and of what moved since a plan read its record (differsFrom): a
 * webhook the EMS holds with `event_ids` [3280, 3282, 3282] is not changed by a form that sends
 * [3280, 3282], nor is it another person's edit when the EMS answers them in another order.
 */
export function sameField(field: string, left: unknown, right: unknown): boolean {
  if (field === "headers") return sameHeaders(left as EmsHeader[] | undefined, right as EmsHeader[] | undefined);
  if (SETS.has(field) && Array.isArray(left) && Array.isArray(right)) return sameMembers(left, right);
  return sameValue(left, right);
}

/** The fields of `after` that differ from `before`: what an update sends. */
export function changedFields<T extends Record<string, unknown>>(before: Record<string, unknown>, after: T): Partial<T> {
  const changes: Partial<T> = {};
  for (const [field, value] of Object.entries(after)) {
    if (value !== undefined && !sameField(field, before[field], value)) (changes as Record<string, unknown>)[field] = value;
  }
  return changes;
}

/** A copy of `record` without `fields` (a group without its nested webhooks, a webhook without its id). */
export function without<T extends object>(record: T, fields: readonly string[]): T {
  const copy = { ...record } as Record<string, unknown>;
  for (const field of fields) delete copy[field];
  return copy as T;
}

/** A record's own bookkeeping (its id, who and when) and a group's nested webhooks: never written, never compared. */
export const NOT_WRITABLE = ["id", "created_at", "created_by", "updated_at", "updated_by", "webhooks"] as const;
const BOOKKEEPING: ReadonlySet<string> = new Set(NOT_WRITABLE);

/**
 * Whether `current` differs from `before` in a field both hold (a field one read left out is not
 * a difference): how a plan sees an edit made in the EMS since it read the record.
 */
export function differsFrom(before: object, current: object): boolean {
  const then = before as Record<string, unknown>;
  const now = current as Record<string, unknown>;
  for (const field of Object.keys(then)) {
    if (BOOKKEEPING.has(field) || !(field in now) || then[field] === undefined || now[field] === undefined) continue;
    if (!sameField(field, then[field], now[field])) return true;
  }
  return false;
}
