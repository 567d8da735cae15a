import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { draftPlan } from "@/lib/plans/draft";
import { loadPlanPage } from "@/lib/plans/page";
import { submitPlan } from "@/lib/plans/review";
import { ensureEmsTestEnv } from "@/tests/ems/support/env";
import { planTeamPerTest } from "./support/plan-team";

/**
 * Viewing a plan writes nothing (issue 36 §1): the page works out the plan's impact from Health's
 * findings, but reads them (lib/health/report.ts `readHealthReport`); storing the navigation's
 * counts is Health's own page's business. Every row a view could touch is compared before and after.
 */
ensureEmsTestEnv();

const team = planTeamPerTest();

async function rowsOf(teamId: string) {
  const [summaries, plans, steps, audit] = await Promise.all([
    prisma.healthSummary.findMany({ where: { teamId }, orderBy: { userId: "asc" } }),
    prisma.changePlan.findMany({ where: { teamId }, orderBy: { id: "asc" } }),
    prisma.changePlanStep.findMany({ where: { plan: { teamId } }, orderBy: { id: "asc" } }),
    prisma.auditLog.count({ where: { teamId } }),
  ]);
  return { summaries, plans, steps, audit };
}

describe("viewing a plan", () => {
  it("stores nothing: no health summary, no plan or step change, no audit record, whoever views it", async () => {
    const [hook] = (await team.client().listWebhooks({ perPage: 1, sort: [{ field: "id", direction: "asc" }] })).items;
    const { planId } = await draftPlan(team.member, { edits: [{ kind: "webhook.update", id: hook.id, values: { name: "Viewed, not written" } }] });
    await submitPlan(team.member, planId);
    const before = await rowsOf(team.owner.teamId);
    expect(before.summaries).toEqual([]);

    for (const viewer of [team.owner, team.admin, team.member]) {
      const page = await loadPlanPage(viewer, planId);
      // The impact was worked out (so Health's findings were read) ...
      expect(page.impact).not.toBeNull();
    }
    // ... and nothing was written.
    expect(await rowsOf(team.owner.teamId)).toEqual(before);
  });
});
