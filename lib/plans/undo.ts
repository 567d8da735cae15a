import type { NewWebhook, NewWebhookGroup, Webhook, WebhookGroup } from "@/lib/ems";
import { WEBHOOK_FIELDS, WEBHOOK_GROUP_FIELDS } from "@/lib/ems/contract";
import { NOT_WRITABLE, resourceOf, verbOf, type DraftOperation } from "./operations";

/**
 * Undo (issue 27 §2): the inverse of applied operations, from their recorded before-states, as the
 * operations of a new plan (which goes through the same review). Pure. Applied last-first:
 * - an update becomes an update back to the fields' earlier values (header values included: the
 *   whole earlier list, as a list sent replaces the list, docs/ems-api.md §8.1);
 * - a create becomes a delete of the record it made;
 * - a delete becomes a create with the deleted record's fields (the EMS gives it a new id).
 */

/** The writable fields of a webhook (docs/ems-api.md §8.1): what re-creating a deleted one sends. */
const WEBHOOK_WRITABLE = WEBHOOK_FIELDS.filter((field) => !(NOT_WRITABLE as readonly string[]).includes(field));
const GROUP_WRITABLE = WEBHOOK_GROUP_FIELDS.filter((field) => !(NOT_WRITABLE as readonly string[]).includes(field));

function pick(record: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const field of fields) if (record[field] !== undefined) picked[field] = record[field];
  return picked;
}

export interface AppliedOperation extends DraftOperation {
  /** For a create: the id the EMS gave the record. */
  recordId?: number;
}

/**
 * The operations that undo `applied` (in the order they were applied). A create whose id was never
 * recorded, or an update or delete without a before-state, cannot be undone: listed in `cannot`.
 */
export function inverseOperations(applied: readonly AppliedOperation[]): { operations: DraftOperation[]; cannot: AppliedOperation[] } {
  const operations: DraftOperation[] = [];
  const cannot: AppliedOperation[] = [];
  for (const op of [...applied].reverse()) {
    const resource = resourceOf(op.operation);
    const verb = verbOf(op.operation);
    if (verb === "create") {
      if (op.recordId === undefined) cannot.push(op);
      else operations.push({ operation: `${resource}.delete`, recordId: op.recordId, before: { id: op.recordId, ...(op.changes as object) } as Webhook, changes: {} });
      continue;
    }
    if (!op.before) {
      cannot.push(op);
      continue;
    }
    const before = op.before as Record<string, unknown>;
    if (verb === "delete") {
      const values = pick(before, resource === "webhooks" ? WEBHOOK_WRITABLE : GROUP_WRITABLE);
      operations.push({ operation: `${resource}.create`, before: null, changes: values as unknown as NewWebhook | NewWebhookGroup });
      continue;
    }
    const back = pick(before, Object.keys(op.changes));
    // A field the record did not have before (unknown to the read): cannot be put back.
    if (Object.keys(back).length !== Object.keys(op.changes).length) {
      cannot.push(op);
      continue;
    }
    const after = { ...before, ...(op.changes as object) } as Webhook | WebhookGroup;
    operations.push({ operation: op.operation, recordId: op.recordId, before: after, changes: back });
  }
  return { operations, cannot };
}
