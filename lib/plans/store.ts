import "server-only";
import { PlanStatus } from "./lifecycle";
import { randomUUID } from "node:crypto";
import { prisma, type TransactionClient } from "@/lib/db/prisma";
import { resourceOf, verbOf, type DraftOperation } from "./operations";
import { openBefore, openChanges, sealBefore, sealChanges, type PlanStepInput, type StepChanges, type StepState } from "./steps";

/**
 * A plan's rows: stored in one transaction, read back decrypted. Callers check who may do what
 * (lib/plans/draft.ts, review.ts, apply.ts) before they call these.
 */

/** Steps written or read at a time by the functions that walk a whole plan: a bounded working set whatever its size. */
export const STEP_BATCH = 500;

/** A step's rows, as the steps of a new plan are written (ids made here: their encryption is bound to them). */
export function stepRows(planId: string, steps: readonly PlanStepInput[], firstPosition = 0) {
  return steps.map((step, index) => {
    const id = randomUUID();
    return {
      id,
      position: firstPosition + index,
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
    status?: typeof PlanStatus.draft | typeof PlanStatus.approved;
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
      status: input.status ?? PlanStatus.draft,
      revertsPlanId: input.revertsPlanId ?? null,
    },
  });
  // A batch at a time: a plan of 5,000 steps as one statement held every step's ciphertexts, and
  // the statement built from them, at once.
  for (let start = 0; start < input.steps.length; start += STEP_BATCH) {
    await insertStepRows(tx, planId, stepRows(planId, input.steps.slice(start, start + STEP_BATCH), start));
  }
  return planId;
}

/**
 * One statement of a batch's rows, each column an array: the same small statement whatever the
 * batch. `createMany` had Prisma plan a statement of 4,000 parameters for a batch of 500 (each with
 * its own objects, kept for a while by the client runtime's debug history: lib/db/prisma.ts).
 */
async function insertStepRows(tx: TransactionClient, planId: string, rows: ReturnType<typeof stepRows>): Promise<void> {
  const column = <K extends keyof (typeof rows)[number]>(key: K) => rows.map((row) => row[key]);
  await tx.$executeRaw`
    INSERT INTO "ChangePlanStep" ("id", "planId", "position", "operation", "recordId", "expectedUpdatedAt", "changesCiphertext", "beforeCiphertext")
    SELECT "id", ${planId}, "position", "operation", "recordId", "expectedUpdatedAt", "changesCiphertext", "beforeCiphertext"
    FROM unnest(${column("id")}::text[], ${column("position")}::int[], ${column("operation")}::text[], ${column("recordId")}::int[],
                ${column("expectedUpdatedAt")}::text[], ${column("changesCiphertext")}::text[], ${column("beforeCiphertext")}::text[])
      AS step("id", "position", "operation", "recordId", "expectedUpdatedAt", "changesCiphertext", "beforeCiphertext")`;
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

/**
 * A plan's steps in order, decrypted: only for the server (they hold header values). `positions`:
 * only those from `from` up to (not including) `to`, for a page of a large plan.
 */
export async function readSteps(planId: string, tx: TransactionClient = prisma, positions?: { from: number; to: number }): Promise<StoredStep[]> {
  const rows = await tx.changePlanStep.findMany({
    where: { planId, ...(positions ? { position: { gte: positions.from, lt: positions.to } } : {}) },
    orderBy: { position: "asc" },
  });
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

/**
 * A plan's steps in order, their changes decrypted (not their before-states), a batch at a time:
 * what a walk over a whole plan needs (the approval's digest, the plan page's impact and cost).
 */
export async function* stepChanges(
  planId: string,
  tx: TransactionClient = prisma,
  where: { state?: { notIn: StepState[] } } = {},
): AsyncGenerator<{ position: number; state: StepState; operation: DraftOperation["operation"]; recordId: number | null; changes: StepChanges }> {
  for (let after = -1; ;) {
    const rows = await tx.changePlanStep.findMany({
      where: { planId, position: { gt: after }, ...where },
      orderBy: { position: "asc" },
      take: STEP_BATCH,
      select: { id: true, position: true, state: true, operation: true, recordId: true, changesCiphertext: true },
    });
    for (const row of rows) {
      yield {
        position: row.position,
        state: row.state as StepState,
        operation: row.operation as DraftOperation["operation"],
        recordId: row.recordId,
        changes: openChanges(planId, row.id, row.changesCiphertext),
      };
    }
    if (rows.length < STEP_BATCH) return;
    after = rows[rows.length - 1].position;
  }
}

/**
 * A plan's applied steps in order, with their before-states (what undo inverts: lib/plans/undo.ts),
 * a batch at a time. Not `readSteps` of the whole plan: undoing the 400 steps a 5,000-step plan
 * applied before it was stopped read and decrypted all 5,000 rows, before-states included, at once
 * (bench:memory's undo phase).
 */
export async function appliedOperations(planId: string, tx: TransactionClient = prisma): Promise<DraftOperation[]> {
  const operations: DraftOperation[] = [];
  for (let after = -1; ;) {
    const rows = await tx.changePlanStep.findMany({
      where: { planId, state: "applied", position: { gt: after } },
      orderBy: { position: "asc" },
      take: STEP_BATCH,
      select: { id: true, position: true, operation: true, recordId: true, changesCiphertext: true, beforeCiphertext: true },
    });
    for (const row of rows) {
      operations.push({
        operation: row.operation as DraftOperation["operation"],
        recordId: row.recordId ?? undefined,
        before: openBefore(planId, row.id, row.beforeCiphertext),
        changes: openChanges(planId, row.id, row.changesCiphertext),
      });
    }
    if (rows.length < STEP_BATCH) return operations;
    after = rows[rows.length - 1].position;
  }
}

/** The changes of the first step of a plan that makes `operation` to one record, or null: one row read, not the whole plan. */
export async function stepChangesOf(planId: string, operation: DraftOperation["operation"], recordId: number): Promise<StepChanges | null> {
  const row = await prisma.changePlanStep.findFirst({
    where: { planId, operation, recordId },
    orderBy: { position: "asc" },
    select: { id: true, changesCiphertext: true },
  });
  return row ? openChanges(planId, row.id, row.changesCiphertext) : null;
}

export const isWebhookOperation = (op: DraftOperation) => resourceOf(op.operation) === "webhooks";
