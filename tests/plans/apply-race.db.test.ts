import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { accountKey } from "@/lib/ems-access/account-key";
import { startApply } from "@/lib/plans/apply";
import { cancelPlan, planDigest } from "@/lib/plans/review";
import { duePlanIds } from "@/lib/plans/run";
import { insertPlan } from "@/lib/plans/store";
import { DEMO_CREDENTIALS } from "@/lib/sandbox/testing";
import { ensureEmsTestEnv } from "@/tests/ems/support/env";
import { warmPool } from "../setup/db";
import { planTeamPerTest, EVERY_DUE_PLAN } from "./support/plan-team";

/**
 * Starting and stopping a plan as people do it, at once, on the real PostgreSQL (issue 35): seven
 * Apply requests at once are one start (one answer that says "applying", one audit record); a
 * plan that nobody is applying any more (its applier released it or died) is cancelled at once.
 *
 * Checked: without the `appliedById: null` condition of startApply's UPDATE, all seven succeed and
 * seven `plan.apply_started` records are written.
 */
ensureEmsTestEnv();

const team = planTeamPerTest();
const ROUNDS = 5;

async function approvedPlan(title: string): Promise<string> {
  const hooks = (await team.client().listWebhooks({ perPage: 3, sort: [{ field: "id", direction: "asc" }] })).items;
  const planId = await insertPlan({
    teamId: team.owner.teamId,
    accountKey: accountKey(team.sandbox.baseUrl, DEMO_CREDENTIALS.consumerKey),
    title,
    status: "approved",
    steps: hooks.map((hook, index) => ({
      operation: "webhooks.update" as const,
      recordId: hook.id,
      changes: { url: `https://race.example.com/${index}` },
      expectedUpdatedAt: hook.updated_at,
    })),
  });
  await prisma.changePlan.update({ where: { id: planId }, data: { approvedDigest: await planDigest(planId) } });
  return planId;
}

const startedRecords = (planId: string) => prisma.auditLog.count({ where: { target: planId, action: "plan.apply_started" } });

describe("Apply pressed many times at once", () => {
  it("starts the plan once: one request is told it applies, the others that it is being applied already; one audit record", async () => {
    await warmPool(8);
    for (let round = 0; round < ROUNDS; round++) {
      const planId = await approvedPlan(`Race ${round}`);
      const outcomes = await Promise.allSettled(Array.from({ length: 7 }, (_, index) => startApply(index % 2 ? team.owner : team.admin, planId)));
      const won = outcomes.filter((outcome) => outcome.status === "fulfilled");
      const refused = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
      expect(won, `round ${round}`).toHaveLength(1);
      for (const outcome of refused) expect(outcome.reason).toMatchObject({ code: "plan_not_approved" });
      expect(await startedRecords(planId)).toBe(1);
    }
  });
});

describe("cancelling a plan being applied", () => {
  it("is at once when no applier holds it (released, or its lease ran out); it waits for the applier's next step when one does", async () => {
    for (const lease of [null, new Date(Date.now() - 1_000)]) {
      const planId = await approvedPlan("Left by its applier");
      const [first, second] = await prisma.changePlanStep.findMany({ where: { planId }, orderBy: { position: "asc" } });
      await prisma.changePlanStep.update({ where: { id: first.id }, data: { state: "applied" } });
      await prisma.changePlanStep.update({ where: { id: second.id }, data: { state: "running", startedBy: "dead", startedAt: new Date() } });
      await prisma.changePlan.update({
        where: { id: planId },
        data: { status: "applying", appliedById: team.owner.userId, leaseId: lease ? "dead" : null, leaseUntil: lease },
      });

      expect(await cancelPlan(team.owner, planId)).toBe("cancelled");
      expect(await prisma.changePlan.findUniqueOrThrow({ where: { id: planId } })).toMatchObject({ status: "cancelled", leaseId: null });
      expect((await prisma.changePlanStep.findMany({ where: { planId }, orderBy: { position: "asc" } })).map((step) => step.state)).toEqual([
        "applied",
        "failed",
        "skipped",
      ]);
      expect(await duePlanIds(EVERY_DUE_PLAN)).not.toContain(planId);
    }

    const held = await approvedPlan("Held by a live applier");
    await prisma.changePlan.update({
      where: { id: held },
      data: { status: "applying", appliedById: team.owner.userId, leaseId: "alive", leaseUntil: new Date(Date.now() + 60_000) },
    });
    expect(await cancelPlan(team.owner, held)).toBe("stopping");
    expect(await prisma.changePlan.findUniqueOrThrow({ where: { id: held } })).toMatchObject({ status: "applying", leaseId: "alive" });
  });
});
