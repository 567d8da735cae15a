import { describe, expect, it } from "vitest";
import type { Webhook } from "@/lib/ems";
import { insertPlan, readSteps, STEP_BATCH } from "@/lib/plans/store";
import type { PlanStepInput } from "@/lib/plans/steps";
import { createTeam } from "../teams/fixtures";

/**
 * A plan's steps as stored (lib/plans/store.ts): written a batch at a time as one statement of
 * columns, read back as they were given, over batch boundaries and with every nullable column
 * both null and set (a create has no record, no before-state, no expected `updated_at`).
 */
const hook = (id: number): Webhook =>
  ({ id, name: `Hook ${id}`, url: `https://h.example/${id}`, headers: [{ key: "X-Key", value: `v${id}` }], updated_at: `2026-01-0${(id % 9) + 1}T00:00:00Z` }) as Webhook;

function stepsOf(count: number): PlanStepInput[] {
  return Array.from({ length: count }, (_, index): PlanStepInput => {
    if (index % 7 === 3)
      return { operation: "webhooks.create", changes: { name: `New ${index}`, url: `https://n.example/${index}`, trigger_object: "event", group_id: 1 } };
    if (index % 11 === 5) return { operation: "webhooks.update", recordId: index, changes: { enabled: false }, before: hook(index), expectedUpdatedAt: null };
    return {
      operation: "webhooks.update",
      recordId: index,
      changes: { url: `https://moved.example/${index}` },
      before: hook(index),
      expectedUpdatedAt: hook(index).updated_at,
    };
  });
}

describe("a plan's steps as stored", () => {
  it("reads back every step as given, in order, across batches, nulls and values alike", async () => {
    const team = await createTeam();
    const steps = stepsOf(2 * STEP_BATCH + 37);
    const planId = await insertPlan({ teamId: team.teamId, accountKey: "store-test", title: "Stored", steps });
    const read = await readSteps(planId);
    expect(read.map((step) => step.position)).toEqual(steps.map((_, index) => index));
    expect(read.every((step) => step.state === "pending" && step.message === null && step.finishedAt === null)).toBe(true);
    expect(
      read.map((step) => ({
        operation: step.operation.operation,
        recordId: step.operation.recordId,
        changes: step.operation.changes,
        before: step.operation.before,
        expectedUpdatedAt: step.expectedUpdatedAt,
      })),
    ).toEqual(
      steps.map((step) => ({
        operation: step.operation,
        recordId: step.recordId,
        changes: step.changes,
        before: step.before ?? null,
        expectedUpdatedAt: step.expectedUpdatedAt ?? null,
      })),
    );
  });
});
