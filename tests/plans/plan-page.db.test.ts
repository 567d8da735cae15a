import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/access/actor";
import { saveCredential } from "@/lib/credentials/store";
import { prisma } from "@/lib/db/prisma";
import { flushEmsState } from "@/lib/ems";
import { describeOperation } from "@/lib/plans/diff";
import { draftPlan } from "@/lib/plans/draft";
import { loadPlanPage, OPERATIONS_PER_PAGE } from "@/lib/plans/page";
import { readSteps } from "@/lib/plans/store";
import { DEMO_CREDENTIALS, type StartedSandbox } from "@/lib/sandbox/testing";
import { startAllowedSandbox } from "@/tests/ems/support/sandbox";
import { ensureEmsTestEnv } from "@/tests/ems/support/env";
import { tokenFor, listAll } from "../sandbox/helpers";
import { createTeam } from "../teams/fixtures";

/**
 * The plan page's data for a plan of several pages (lib/plans/page.ts): 100 operations a page in the
 * order they are applied, each run of one group under its heading, "continued" where the previous
 * page ended in the same group, and, while it applies, the step under way and the page it is on, and
 * whether its applier stopped (the page then says another instance takes it up).
 */
ensureEmsTestEnv();

let sandbox: StartedSandbox;
let owner: Actor;
let planId: string;
beforeAll(async () => {
  sandbox = await startAllowedSandbox();
  owner = await createTeam();
  await saveCredential(owner, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS }, {}, { check: false });
  const token = await tokenFor(sandbox.baseUrl);
  const ids = (await listAll<{ id: number }>(sandbox.baseUrl, token, "webhooks", "fields=id&sort=id")).slice(0, 250).map((hook) => hook.id);
  ({ planId } = await draftPlan(owner, { edits: [{ kind: "webhooks.bulk", ids, edit: { kind: "set-header", key: "X-Page-Test", value: "page-test-value" } }] }));
});
afterAll(async () => {
  await flushEmsState();
  await sandbox?.close();
});

describe("a plan page of many operations", () => {
  it("shows 100 a page in applied order, one heading per run of a group, 'continued' across a page break", async () => {
    const steps = await readSteps(planId);
    expect(steps.length).toBeGreaterThan(2 * OPERATIONS_PER_PAGE);
    const groupAt = (index: number) => describeOperation(steps[index].operation, {}).groupId;
    for (const page of [1, 2, 3]) {
      const data = await loadPlanPage(owner, planId, { page });
      expect(data.pageCount).toBe(Math.ceil(steps.length / OPERATIONS_PER_PAGE));
      const positions = data.sections.flatMap((section) => section.steps.map((step) => step.position));
      const start = (page - 1) * OPERATIONS_PER_PAGE;
      expect(positions).toEqual(steps.slice(start, start + OPERATIONS_PER_PAGE).map((step) => step.position));
      data.sections.forEach((section, index) => {
        if (index > 0) expect(section.groupId).not.toBe(data.sections[index - 1].groupId);
        expect(section.continued).toBe(index === 0 && page > 1 && groupAt(start - 1) === section.groupId);
      });
      expect(data.current).toBeNull();
    }
    // A page break inside one group reads "continued" on the next page.
    const breaks = [1, 2].filter((page) => groupAt(page * OPERATIONS_PER_PAGE - 1) === groupAt(page * OPERATIONS_PER_PAGE));
    expect(breaks.length).toBeGreaterThan(0);
    for (const page of breaks) expect((await loadPlanPage(owner, planId, { page: page + 1 })).sections[0].continued).toBe(true);
  });

  it("points at the step being sent while it applies, on the page it is on", async () => {
    const steps = await readSteps(planId);
    const running = steps[OPERATIONS_PER_PAGE + 7];
    await prisma.changePlan.update({ where: { id: planId }, data: { status: "applying" } });
    await prisma.changePlanStep.updateMany({ where: { planId, position: { lt: running.position } }, data: { state: "applied" } });
    await prisma.changePlanStep.updateMany({ where: { planId, position: running.position }, data: { state: "running" } });
    await prisma.changePlan.update({ where: { id: planId }, data: { leaseId: "live-applier", leaseUntil: new Date(Date.now() + 60_000) } });
    const data = await loadPlanPage(owner, planId, { page: 1 });
    expect(data.current).toEqual({ position: running.position, page: 2 });
    expect(data.counts.applied).toBe(OPERATIONS_PER_PAGE + 7);
    expect(data.awaitingApplier).toBe(false);
  });

  it("says the plan is resuming elsewhere when its applier's lease ran out (a killed instance) or it was released", async () => {
    await prisma.changePlan.update({ where: { id: planId }, data: { status: "applying", leaseId: "dead-applier", leaseUntil: new Date(Date.now() - 1_000) } });
    expect((await loadPlanPage(owner, planId)).awaitingApplier).toBe(true);
    await prisma.changePlan.update({ where: { id: planId }, data: { leaseId: null, leaseUntil: null } });
    expect((await loadPlanPage(owner, planId)).awaitingApplier).toBe(true);
    await prisma.changePlan.update({ where: { id: planId }, data: { status: "applied" } });
    expect((await loadPlanPage(owner, planId)).awaitingApplier).toBe(false);
  });
});
