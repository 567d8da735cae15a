import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { draftPlan } from "@/lib/plans/draft";
import { loadPlanPage } from "@/lib/plans/page";
import { planDigest, submitPlan } from "@/lib/plans/review";
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

describe("the approval's digest", () => {
  it("opens only what it hashes: the changes; a before-state that cannot be decrypted changes nothing", async () => {
    const [hook] = (await team.client().listWebhooks({ perPage: 1, sort: [{ field: "id", direction: "asc" }] })).items;
    const { planId } = await draftPlan(team.member, { edits: [{ kind: "webhook.update", id: hook.id, values: { name: "Hashed, not opened" } }] });
    const digest = await planDigest(planId);
    // A before-state is most of a step's bytes and holds header values: never read for the digest.
    await prisma.changePlanStep.updateMany({ where: { planId }, data: { beforeCiphertext: "v1:not-a-key:not-a-ciphertext" } });
    expect(await planDigest(planId)).toBe(digest);
  });
});
