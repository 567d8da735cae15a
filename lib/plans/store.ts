import "server-only";
import { randomUUID } from "node:crypto";
import { prisma } from "@/lib/db/prisma";
import { sealChanges, type PlanStepInput } from "./steps";

/**
 * Stores a plan and its steps in one transaction. The drafting code (issue 27 §2) checks who may
 * draft before it calls this; the apply tests use it to set a plan up.
 */
export async function insertPlan(input: {
  teamId: string;
  accountKey: string;
  title: string;
  authorId?: string | null;
  status?: "draft" | "approved";
  steps: readonly PlanStepInput[];
}): Promise<string> {
  const planId = randomUUID();
  await prisma.changePlan.create({
    data: {
      id: planId,
      teamId: input.teamId,
      accountKey: input.accountKey,
      title: input.title,
      authorId: input.authorId ?? null,
      status: input.status ?? "draft",
      steps: {
        create: input.steps.map((step, position) => {
          const id = randomUUID();
          return {
            id,
            position,
            operation: step.operation,
            recordId: step.recordId ?? null,
            expectedUpdatedAt: step.expectedUpdatedAt ?? null,
            changesCiphertext: sealChanges(planId, id, step.changes),
          };
        }),
      },
    },
  });
  return planId;
}
