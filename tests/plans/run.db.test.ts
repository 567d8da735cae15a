import { describe, expect, it } from "vitest";
import type { Actor } from "@/lib/access/actor";
import { saveCredential } from "@/lib/credentials/store";
import { prisma } from "@/lib/db/prisma";
import type { Webhook } from "@/lib/ems";
import { accountKey } from "@/lib/ems-access/account-key";
import { duePlanIds, runDuePlans } from "@/lib/plans/run";
import { insertPlan } from "@/lib/plans/store";
import { DEMO_CREDENTIALS } from "@/lib/sandbox/testing";
import { ensureEmsTestEnv } from "@/tests/ems/support/env";
import { createTeam } from "../teams/fixtures";
import { withOwnDatabase } from "../setup/db";
import { planTeamPerTest } from "./support/plan-team";

/**
 * Running the due plans as the plan-apply job does (lib/plans/run.ts) on the real PostgreSQL against
 * the sandbox over HTTP: a long plan does not hold back a plan started meanwhile (another team's),
 * a plan whose applier died is taken up once its lease runs out, and a run that reaches its deadline
 * leaves its plans due and says so.
 */
ensureEmsTestEnv();
// runDuePlans takes up every due plan in the database: other files' plans must not be among them.
withOwnDatabase();

const team = planTeamPerTest();

/** A plan approved and started by `applier` (as startApply leaves it), changing the URL of each webhook given. */
async function startedPlan(applier: Actor, hooks: Webhook[], tag: string): Promise<string> {
  const planId = await insertPlan({
    teamId: applier.teamId,
    accountKey: accountKey(team.sandbox.baseUrl, DEMO_CREDENTIALS.consumerKey),
    title: tag,
    status: "approved",
    steps: hooks.map((hook, index) => ({
      operation: "webhooks.update" as const,
      recordId: hook.id,
      changes: { url: `https://${tag}.example.com/${index}` },
      expectedUpdatedAt: hook.updated_at,
    })),
  });
  await prisma.changePlan.update({ where: { id: planId }, data: { appliedById: applier.userId } });
  return planId;
}

const planOf = (planId: string) => prisma.changePlan.findUniqueOrThrow({ where: { id: planId } });
const appliedSteps = (planId: string) => prisma.changePlanStep.count({ where: { planId, state: "applied" } });

async function webhooks(count: number): Promise<Webhook[]> {
  return (await team.client().listWebhooks({ perPage: count, sort: [{ field: "id", direction: "asc" }] })).items;
}

describe("running the due plans", () => {
  it("a plan started while a long one applies is applied meanwhile, not after it", async () => {
    const hooks = await webhooks(22);
    const other = await createTeam();
    await saveCredential(other, { baseUrl: team.sandbox.baseUrl, ...DEMO_CREDENTIALS }, {}, { check: false });
    const long = await startedPlan(team.owner, hooks.slice(0, 20), "long");
    // Every write takes 400 ms: the long plan takes 8 s or more (a busy machine adds to it).
    await team.sandbox.admin.injectFaults({ count: 21, delayMs: 400, paths: "write" });
    const run = runDuePlans();
    await expect.poll(() => appliedSteps(long), { timeout: 10_000, interval: 50 }).toBeGreaterThanOrEqual(1);
    const short = await startedPlan(other, hooks.slice(20, 21), "short");

    // The short plan ends while the long one is still applying.
    await expect.poll(async () => (await planOf(short)).status, { timeout: 20_000, interval: 50 }).toBe("applied");
    expect((await planOf(long)).status).toBe("applying");
    expect(await appliedSteps(long)).toBeLessThan(20);
    expect(await run).toEqual({ ran: 2, unfinished: false });
    expect((await planOf(long)).status).toBe("applied");
  }, 60_000);

  it("a plan whose applier died is taken up once its lease has run out, and its running step is looked for, not sent again", async () => {
    const hooks = await webhooks(3);
    const planId = await startedPlan(team.owner, hooks, "orphan");
    // As a killed instance leaves it: the first step applied, the second sent (it reached the EMS) but
    // never marked, the lease still held by the dead applier.
    const [first, second] = await prisma.changePlanStep.findMany({ where: { planId }, orderBy: { position: "asc" } });
    await team.writer().updateWebhook(hooks[0].id, { url: "https://orphan.example.com/0" }, { teamId: team.owner.teamId });
    await team.writer().updateWebhook(hooks[1].id, { url: "https://orphan.example.com/1" }, { teamId: team.owner.teamId });
    await prisma.changePlanStep.update({ where: { id: first.id }, data: { state: "applied" } });
    await prisma.changePlanStep.update({ where: { id: second.id }, data: { state: "running", startedBy: "dead-applier", startedAt: new Date() } });
    await prisma.changePlan.update({ where: { id: planId }, data: { status: "applying", leaseId: "dead-applier", leaseUntil: new Date(Date.now() + 60_000) } });
    await team.forget();

    // Its lease holds: nobody takes it.
    expect(await duePlanIds()).not.toContain(planId);
    expect(await runDuePlans()).toEqual({ ran: 0, unfinished: false });
    expect((await planOf(planId)).leaseId).toBe("dead-applier");

    // Its lease runs out: the next run finishes it, writing only the third webhook.
    await prisma.changePlan.update({ where: { id: planId }, data: { leaseUntil: new Date(Date.now() - 1_000) } });
    expect(await duePlanIds()).toContain(planId);
    const before = (await team.sandbox.admin.stats()).perAccount[DEMO_CREDENTIALS.consumerKey]?.writes ?? 0;
    expect(await runDuePlans()).toEqual({ ran: 1, unfinished: false });
    expect(await planOf(planId)).toMatchObject({ status: "applied", leaseId: null });
    expect((await team.sandbox.admin.stats()).perAccount[DEMO_CREDENTIALS.consumerKey]?.writes).toBe(before + 1);
    expect((await team.client().getOne("webhooks", hooks[2].id)).item?.url).toBe("https://orphan.example.com/2");
  });

  it("a due plan whose turn changes nothing is tried once a run: the run ends instead of starting it again every few seconds", async () => {
    const hooks = await webhooks(1);
    const planId = await startedPlan(team.owner, hooks, "stuck");
    // Applying, released, with no applier recorded: runPlan has nothing to run it with, and it stays due.
    await prisma.changePlan.update({ where: { id: planId }, data: { status: "applying", appliedById: null, leaseId: null, leaseUntil: null } });
    const started = Date.now();
    expect(await runDuePlans()).toEqual({ ran: 0, unfinished: false });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await duePlanIds()).toContain(planId);
    await prisma.changePlan.update({ where: { id: planId }, data: { status: "cancelled" } });
  });

  it("a run at its deadline stops between steps, leaves the plan due and says there is work left", async () => {
    const hooks = await webhooks(4);
    const planId = await startedPlan(team.owner, hooks, "deadline");
    await team.sandbox.admin.injectFaults({ count: 4, delayMs: 500, paths: "write" });
    const outcome = await runDuePlans({ deadline: Date.now() + 700 });
    expect(outcome).toEqual({ ran: 0, unfinished: true });
    const plan = await planOf(planId);
    expect(plan).toMatchObject({ status: "applying", leaseId: null });
    expect(await appliedSteps(planId)).toBeGreaterThanOrEqual(1);
    expect(await appliedSteps(planId)).toBeLessThan(4);
    // Released, so due at once: the next run (the engine sends it straight away) finishes it.
    expect(await duePlanIds()).toContain(planId);
    expect(await runDuePlans()).toEqual({ ran: 1, unfinished: false });
    expect(await appliedSteps(planId)).toBe(4);
  });
});
