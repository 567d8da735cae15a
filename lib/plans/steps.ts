import "server-only";
import { decryptSecret, encryptSecret, secretAad } from "@/lib/crypto/secret-box";
import type { NewWebhook, NewWebhookGroup, WebhookChanges, WebhookGroupChanges, WriteOperation } from "@/lib/ems";

/**
 * A plan's step as stored: one write of docs/ems-api.md §8. Its changes hold header values, which
 * are credentials, so they are stored encrypted (the credential key ring) and bound to their row.
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
}

export function stepAad(planId: string, stepId: string): string {
  return secretAad("ChangePlanStep", `${planId}:${stepId}`, "changesCiphertext");
}

export function sealChanges(planId: string, stepId: string, changes: StepChanges): string {
  return encryptSecret(JSON.stringify(changes), stepAad(planId, stepId));
}

export function openChanges(planId: string, stepId: string, ciphertext: string): StepChanges {
  return JSON.parse(decryptSecret(ciphertext, stepAad(planId, stepId))) as StepChanges;
}
