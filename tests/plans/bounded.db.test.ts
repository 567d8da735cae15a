import { beforeEach, describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { draftPlan, draftUndoPlan } from "@/lib/plans/draft";
import { loadPlanPage, loadPlanProgress, OPERATIONS_PER_PAGE } from "@/lib/plans/page";
import { approvePlan, submitPlan } from "@/lib/plans/review";
import { readSteps } from "@/lib/plans/store";
import { DEMO_CREDENTIALS } from "@/lib/sandbox/testing";
import { ensureEmsTestEnv } from "@/tests/ems/support/env";
import { listAll, tokenFor } from "../sandbox/helpers";
import { planTeamPerTest } from "./support/plan-team";

/**
 * A large plan's reads stay bounded (issue 34 §2), shown by what they do not touch: approving hashes
 * the changes and never opens a before-state; the plan page opens only the steps of the page shown;
 * a plan being applied is shown (and its progress polled) without reading the account's setup,
 * which every write of the apply drops from the shared answers; undoing a plan stopped part-way opens
 * the steps it applied, not the rest. A before-state that cannot be
 * opened stands for one that is not opened: the code before this read every step whole.
 */
ensureEmsTestEnv();

const team = planTeamPerTest();
let planId: string;

async function apiCalls(): Promise<number> {
  return (await team.sandbox.admin.stats()).perAccount[DEMO_CREDENTIALS.consumerKey]?.apiRequests ?? 0;
}

/** Makes one step's before-state impossible to open (it is bound to its row, so another's will not do). */
async function spoilBefore(position: number): Promise<void> {
  const [a, b] = await prisma.changePlanStep.findMany({ where: { planId, position: { in: [position, position + 1] } }, orderBy: { position: "asc" } });
  await prisma.changePlanStep.update({ where: { id: a.id }, data: { beforeCiphertext: b.beforeCiphertext } });
}

/** The same for a step's changes. */
async function spoilChanges(position: number): Promise<void> {
  const [a, b] = await prisma.changePlanStep.findMany({ where: { planId, position: { in: [position, position + 1] } }, orderBy: { position: "asc" } });
  await prisma.changePlanStep.update({ where: { id: a.id }, data: { changesCiphertext: b.changesCiphertext } });
}

beforeEach(async () => {
  const token = await tokenFor(team.sandbox.baseUrl);
  const ids = (await listAll<{ id: number }>(team.sandbox.baseUrl, token, "webhooks", "fields=id&sort=id")).slice(0, 2 * OPERATIONS_PER_PAGE + 20).map((hook) => hook.id);
  ({ planId } = await draftPlan(team.owner, { edits: [{ kind: "webhooks.bulk", ids, edit: { kind: "set-header", key: "X-Bounded", value: "bounded-test-value" } }] }));
});

describe("a large plan, read a bounded part at a time", () => {
  it("approving hashes what is sent and never opens a before-state", async () => {
    await spoilBefore(OPERATIONS_PER_PAGE + 3);
    await submitPlan(team.owner, planId);
    await approvePlan(team.admin, planId);
    expect((await prisma.changePlan.findUniqueOrThrow({ where: { id: planId } })).status).toBe("approved");
  });

  it("the plan page opens the steps of the page shown (and the one before it), no others", async () => {
    await spoilBefore(2 * OPERATIONS_PER_PAGE + 5);
    const first = await loadPlanPage(team.owner, planId, { page: 1 });
    expect(first.operationCount).toBe(2 * OPERATIONS_PER_PAGE + 20);
    expect(first.sections.flatMap((section) => section.steps)).toHaveLength(OPERATIONS_PER_PAGE);
    // Cost and impact still cover every step not applied.
    expect(first.cost.credits).toBe(2 * first.operationCount);
    expect(first.impact).not.toBeNull();
    await expect(loadPlanPage(team.owner, planId, { page: 3 })).rejects.toThrow();
  });

  it("viewing the plan page again on the same setup computes its impact once: no step's changes are read again", async () => {
    const first = await loadPlanPage(team.owner, planId, { page: 1 });
    await spoilChanges(2 * OPERATIONS_PER_PAGE + 5);
    const again = await loadPlanPage(team.owner, planId, { page: 1 });
    expect(again.impact).toEqual(first.impact);
    expect(again.cost).toEqual(first.cost);
  });

  it("a plan being applied is shown without reading the setup, and its progress costs no EMS call", async () => {
    const steps = await readSteps(planId);
    await prisma.changePlan.update({ where: { id: planId }, data: { status: "applying" } });
    await prisma.changePlanStep.updateMany({ where: { planId, position: { lt: 150 } }, data: { state: "applied" } });
    await prisma.changePlanStep.updateMany({ where: { planId, position: 150 }, data: { state: "running" } });
    await team.forget();

    let before = await apiCalls();
    const page = await loadPlanPage(team.owner, planId, { page: 2 });
    // The names of the page's groups: one listing of their ids. The setup is two (groups, events).
    expect((await apiCalls()) - before).toBeLessThanOrEqual(1);
    expect(page.impact).toBeNull();
    expect(page.sections.every((section) => !section.groupName.startsWith("Group #"))).toBe(true);
    expect(page.current).toEqual({ position: 150, page: 2 });

    before = await apiCalls();
    const progress = await loadPlanProgress(team.owner, planId);
    expect(await apiCalls()).toBe(before);
    expect(progress).toEqual({
      status: "applying",
      operationCount: steps.length,
      counts: { pending: steps.length - 151, running: 1, applied: 150, failed: 0, conflict: 0, skipped: 0 },
      current: { position: 150, page: 2 },
    });
  });

  it("undoing a plan stopped part-way opens the steps it applied, not the rest", async () => {
    await prisma.changePlan.update({ where: { id: planId }, data: { status: "cancelled", stopReason: "Cancelled by the test." } });
    await prisma.changePlanStep.updateMany({ where: { planId, position: { lt: 30 } }, data: { state: "applied" } });
    await prisma.changePlanStep.updateMany({ where: { planId, position: { gte: 30 } }, data: { state: "skipped" } });
    await spoilBefore(OPERATIONS_PER_PAGE + 3);
    await spoilChanges(OPERATIONS_PER_PAGE + 7);
    const undo = await draftUndoPlan(team.owner, planId);
    expect(undo).toMatchObject({ operations: 30, cannot: 0 });
    const undone = await readSteps(undo.planId);
    // The inverse of the applied steps, last first.
    expect(undone.map((step) => step.operation.recordId)).toEqual(
      (await readSteps(planId, prisma, { from: 0, to: 30 })).map((step) => step.operation.recordId).reverse(),
    );
  });
});
