import "server-only";
import { decryptSecret, encryptSecret, secretAad } from "@/lib/crypto/secret-box";
import type { NewWebhook, NewWebhookGroup, Webhook, WebhookChanges, WebhookGroup, WebhookGroupChanges, WriteOperation } from "@/lib/ems";

/**
 * A plan's step as stored: one write of docs/ems-api.md §8. Its changes and the record's state before
 * hold header values, which are credentials, so both are stored encrypted (the credential key ring)
 * and bound to their row and column.
 */

/** pending → running → applied | failed | conflict | skipped; a step leaves "pending" once. */
export const STEP_STATES = ["pending", "running", "applied", "failed", "conflict", "skipped"] as const;
export type StepState = (typeof STEP_STATES)[number];

export type StepChanges = WebhookChanges | WebhookGroupChanges | NewWebhook | NewWebhookGroup | Record<string, never>;

export interface PlanStepInput {
  operation: WriteOperation;
  /** The record an update or delete is for. */
  recordId?: number;
  /** What to send: every field for a create, the changed ones for an update, nothing for a delete. */
  changes: StepChanges;
  /** The record's `updated_at` when the plan was made (update, delete): a conflict if it moved. */
  expectedUpdatedAt?: string | null;
  /** The record when the plan was made (update, delete): the diff's "before" and what undo puts back. */
  before?: Webhook | WebhookGroup | null;
}

export function stepAad(planId: string, stepId: string, column: "changesCiphertext" | "beforeCiphertext" = "changesCiphertext"): string {
  return secretAad("ChangePlanStep", `${planId}:${stepId}`, column);
}

export function sealChanges(planId: string, stepId: string, changes: StepChanges): string {
  return encryptSecret(JSON.stringify(changes), stepAad(planId, stepId));
}

export function openChanges(planId: string, stepId: string, ciphertext: string): StepChanges {
  return JSON.parse(decryptSecret(ciphertext, stepAad(planId, stepId))) as StepChanges;
}

export function sealBefore(planId: string, stepId: string, before: Webhook | WebhookGroup): string {
  return encryptSecret(JSON.stringify(before), stepAad(planId, stepId, "beforeCiphertext"));
}

export function openBefore(planId: string, stepId: string, ciphertext: string | null): Webhook | WebhookGroup | null {
  return ciphertext === null ? null : (JSON.parse(decryptSecret(ciphertext, stepAad(planId, stepId, "beforeCiphertext"))) as Webhook | WebhookGroup);
}
