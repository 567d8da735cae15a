import "server-only";
import { randomUUID } from "node:crypto";
import { prisma, type TransactionClient } from "@/lib/db/prisma";
import { resourceOf, verbOf, type DraftOperation } from "./operations";
import { openBefore, openChanges, sealBefore, sealChanges, type PlanStepInput, type StepState } from "./steps";

/**
 * A plan's rows: stored in one transaction, read back decrypted. Callers check who may do what
 * (lib/plans/draft.ts, review.ts, apply.ts) before they call these.
 */

/** A step's rows, as the steps of a new plan are written (ids made here: their encryption is bound to them). */
export function stepRows(planId: string, steps: readonly PlanStepInput[]) {
  return steps.map((step, position) => {
    const id = randomUUID();
    return {
      id,
      position,
      operation: step.operation,
      recordId: step.recordId ?? null,
      expectedUpdatedAt: step.expectedUpdatedAt ?? null,
      changesCiphertext: sealChanges(planId, id, step.changes),
      beforeCiphertext: step.before ? sealBefore(planId, id, step.before) : null,
    };
  });
}

/** A drafted operation as a step: it expects the record as it was read. */
export function stepOf(op: DraftOperation): PlanStepInput {
  return {
    operation: op.operation,
    recordId: op.recordId,
    changes: op.changes,
    before: op.before,
    expectedUpdatedAt: verbOf(op.operation) === "create" ? null : (op.before?.updated_at ?? null),
  };
}

export async function insertPlan(
  input: {
    teamId: string;
    accountKey: string;
    title: string;
    authorId?: string | null;
    status?: "draft" | "approved";
    revertsPlanId?: string | null;
    steps: readonly PlanStepInput[];
  },
  tx: TransactionClient = prisma,
): Promise<string> {
  const planId = randomUUID();
  await tx.changePlan.create({
    data: {
      id: planId,
      teamId: input.teamId,
      accountKey: input.accountKey,
      title: input.title,
      authorId: input.authorId ?? null,
      status: input.status ?? "draft",
      revertsPlanId: input.revertsPlanId ?? null,
      steps: { create: stepRows(planId, input.steps) },
    },
  });
  return planId;
}

export interface StoredStep {
  id: string;
  position: number;
  state: StepState;
  message: string | null;
  finishedAt: Date | null;
  expectedUpdatedAt: string | null;
  operation: DraftOperation;
}

/** A plan's steps in order, decrypted: only for the server (they hold header values). */
export async function readSteps(planId: string, tx: TransactionClient = prisma): Promise<StoredStep[]> {
  const rows = await tx.changePlanStep.findMany({ where: { planId }, orderBy: { position: "asc" } });
  return rows.map((row) => ({
    id: row.id,
    position: row.position,
    state: row.state as StepState,
    message: row.message,
    finishedAt: row.finishedAt,
    expectedUpdatedAt: row.expectedUpdatedAt,
    operation: {
      operation: row.operation as DraftOperation["operation"],
      recordId: row.recordId ?? undefined,
      before: openBefore(planId, row.id, row.beforeCiphertext),
      changes: openChanges(planId, row.id, row.changesCiphertext),
    },
  }));
}

export const isWebhookOperation = (op: DraftOperation) => resourceOf(op.operation) === "webhooks";
