import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/access/actor";
import { prisma } from "@/lib/db/prisma";
import { credentialFingerprint, flushBudgetUsage, type Webhook } from "@/lib/ems";
import { accountKey } from "@/lib/ems-access/account-key";
import { syncTracker } from "@/lib/history/sync";
import { startTracking } from "@/lib/history/trackers";
import { findDriftAfterSyncs } from "@/lib/plans/drift";
import { acceptDrift, draftReapply, listDrift } from "@/lib/plans/drift-findings";
import { runPlan } from "@/lib/plans/run";
import { insertPlan, readSteps } from "@/lib/plans/store";
import { DEMO_CREDENTIALS } from "@/lib/sandbox/testing";
import { ensureEmsTestEnv } from "@/tests/ems/support/env";
import { createTeam } from "../teams/fixtures";
import { planTeamPerTest } from "./support/plan-team";

/**
 * Drift from applied plans (issue 37 §3, lib/plans/drift.ts) on a real PostgreSQL against the
 * sandbox over HTTP: a plan is applied as the plan-apply job runs it (its own history sync
 * included), then a person edits records in the "EMS web app" (the sandbox's admin edits), and the
 * next sync is compared with what the plan set.
 */
ensureEmsTestEnv();

const team = planTeamPerTest();
// History's share of the rate limit is counted per credential, and every test here syncs the same
// account several times: a larger share, and each test starts with nothing spent.
beforeAll(() => {
  process.env.HISTORY_SYNC_BUDGET_PERCENT = "70";
});
afterAll(() => {
  delete process.env.HISTORY_SYNC_BUDGET_PERCENT;
});
beforeEach(async () => {
  await flushBudgetUsage();
  // Only this file's sandbox credential: other files share the database and count their own.
  await prisma.emsBudgetUsage.deleteMany({
    where: { kind: "sync", fingerprint: credentialFingerprint(team.sandbox.baseUrl, KEY, DEMO_CREDENTIALS.consumerSecret) },
  });
});
const KEY = DEMO_CREDENTIALS.consumerKey;
const PLAN_URL = "https://crm.example.com/moved";
const SECRET = "k-drift-9f3b7c1e";

async function trackerOf(owner: Actor): Promise<string> {
  const existing = await prisma.changeTracker.findFirst({ where: { teamId: owner.teamId }, select: { id: true } });
  const id = existing?.id ?? (await startTracking(owner, { intervalMinutes: 15 })).id;
  await prisma.changeTracker.update({ where: { id }, data: { status: "active", pausedReason: null } });
  return id;
}

/** A sync as the history-sync job runs one, then the drift check the job runs after it. */
async function syncAndCheck(trackerId: string) {
  const outcome = await syncTracker(trackerId, { trigger: "manual", force: true });
  if (outcome.status !== "ok") throw new Error(`sync: ${JSON.stringify(outcome)}`);
  return findDriftAfterSyncs([outcome.syncId]);
}

/** Applies a plan (as the plan-apply job would) that moves webhook `hook` to PLAN_URL with an X-Api-Key header. */
async function appliedPlan(applier: Actor, hook: Webhook, title = "Move CRM hooks"): Promise<string> {
  const planId = await insertPlan({
    teamId: applier.teamId,
    accountKey: accountKey(team.sandbox.baseUrl, KEY),
    title,
    status: "approved",
    steps: [
      {
        operation: "webhooks.update",
        recordId: hook.id,
        changes: { url: PLAN_URL, headers: [{ key: "X-Api-Key", value: SECRET }] },
        expectedUpdatedAt: hook.updated_at,
      },
    ],
  });
  await prisma.changePlan.update({ where: { id: planId }, data: { appliedById: applier.userId } });
  expect(await runPlan(planId)).toMatchObject({ status: "applied" });
  return planId;
}

async function setup() {
  const trackerId = await trackerOf(team.owner);
  await syncTracker(trackerId, { trigger: "manual", force: true }); // the baseline (or nothing new)
  const hooks = (await team.client().listWebhooks({ perPage: 3, sort: [{ field: "id", direction: "asc" }] })).items;
  const planId = await appliedPlan(team.owner, hooks[0]);
  return { trackerId, hooks, planId };
}

const driftRows = (planId: string) => prisma.planDrift.findMany({ where: { planId }, orderBy: { field: "asc" } });

describe("drift from an applied plan", () => {
  it("a field the plan set, changed back in the EMS, is one finding naming who; syncing again adds none; a record the plan did not touch makes none", async () => {
    const { trackerId, hooks, planId } = await setup();
    // The plan's own sync (after its apply) found nothing: the records hold what it set.
    expect(await driftRows(planId)).toEqual([]);

    await team.sandbox.admin.applyEdits(KEY, [
      { kind: "set-url", webhookId: hooks[0].id, url: "https://old-crm.example.com/hook", by: "jane@example.com" },
      { kind: "set-url", webhookId: hooks[1].id, url: "https://other.example.com/untouched", by: "jane@example.com" },
    ]);
    const found = await syncAndCheck(trackerId);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      planId,
      planTitle: "Move CRM hooks",
      appliedById: team.owner.userId,
      kind: "webhook",
      recordId: hooks[0].id,
      field: "url",
      changedBy: "jane@example.com",
    });
    expect(found[0].changedAt).toBeInstanceOf(Date);
    expect(await driftRows(planId)).toHaveLength(1);

    // Seen again (nothing changed), and changed again to yet another value: still one row, not new.
    expect(await syncAndCheck(trackerId)).toEqual([]);
    await team.sandbox.admin.applyEdits(KEY, [{ kind: "set-url", webhookId: hooks[0].id, url: "https://third.example.com/hook", by: "marie.dupont@example.com" }]);
    expect(await syncAndCheck(trackerId)).toEqual([]);
    const rows = await driftRows(planId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "open", changedBy: "marie.dupont@example.com" });

    const list = await listDrift(team.member, { planId });
    expect(list.open).toBe(1);
    expect(list.findings[0].sentence).toBe(
      `The URL that plan “Move CRM hooks” set on webhook #${hooks[0].id} “${hooks[0].name}” was changed in the EMS by marie.dupont@example.com.`,
    );
    // Another team sees none of it.
    expect((await listDrift(await createTeam())).findings).toEqual([]);
  });

  it("a header value changed is drift by name only; the value is stored nowhere; back at the plan's value, the finding is over", async () => {
    const { trackerId, hooks, planId } = await setup();
    await team.sandbox.admin.applyEdits(KEY, [{ kind: "set-header", target: "webhook", id: hooks[0].id, key: "X-Api-Key", value: "k-someone-else" }]);
    const found = await syncAndCheck(trackerId);
    expect(found.map((each) => each.field)).toEqual(["headers"]);
    const list = await listDrift(team.owner, { planId });
    expect(list.findings[0].sentence).toMatch(/^The headers that plan “Move CRM hooks” set on webhook #\d+ .* were changed in the EMS by marie\.dupont@example\.com\.$/);
    expect(JSON.stringify(await driftRows(planId))).not.toContain("k-someone-else");
    expect(JSON.stringify(list)).not.toContain(SECRET);

    await team.sandbox.admin.applyEdits(KEY, [{ kind: "set-header", target: "webhook", id: hooks[0].id, key: "X-Api-Key", value: SECRET }]);
    expect(await syncAndCheck(trackerId)).toEqual([]);
    expect((await driftRows(planId)).map((row) => row.status)).toEqual(["resolved"]);
    expect((await listDrift(team.owner, { planId })).findings).toEqual([]);
  });

  it("a record the plan changed, deleted in the EMS, is drift; Re-apply says it cannot bring it back", async () => {
    const { trackerId, hooks, planId } = await setup();
    await team.sandbox.admin.applyEdits(KEY, [{ kind: "remove-webhook", webhookId: hooks[0].id }]);
    const found = await syncAndCheck(trackerId);
    expect(found).toMatchObject([{ planId, recordId: hooks[0].id, field: "" }]);
    const list = await listDrift(team.owner, { planId });
    expect(list.findings[0].sentence).toBe(`Webhook #${hooks[0].id} “${hooks[0].name}”, which plan “Move CRM hooks” changed, was deleted in the EMS.`);
    await expect(draftReapply(team.member, found[0].id)).rejects.toThrow(/was deleted in the EMS: Re-apply sets fields again and cannot bring a record back/);
  });

  it("Accept mutes it with who and when (audited); it does not come back while the record stays as accepted; another team's finding is not found", async () => {
    const { trackerId, hooks, planId } = await setup();
    await team.sandbox.admin.applyEdits(KEY, [{ kind: "set-url", webhookId: hooks[0].id, url: "https://old-crm.example.com/hook" }]);
    const [finding] = await syncAndCheck(trackerId);

    await expect(acceptDrift(team.member, finding.id)).rejects.toThrow("Only owners and admins can manage the team.");
    const stranger = await createTeam();
    await expect(acceptDrift(stranger, finding.id)).rejects.toThrow("That drift finding no longer exists, or it is not in your team.");

    await acceptDrift(team.admin, finding.id);
    const [row] = await driftRows(planId);
    expect(row).toMatchObject({ status: "accepted", acceptedById: team.admin.userId, acceptedByEmail: team.admin.email });
    expect(row.acceptedAt).toBeInstanceOf(Date);
    const audit = await prisma.auditLog.findFirstOrThrow({ where: { teamId: team.owner.teamId, action: "plan.drift_accepted" } });
    expect(audit).toMatchObject({ actorId: team.admin.userId, target: planId });
    expect(audit.metadata).toMatchObject({ recordId: hooks[0].id, field: "url", title: "Move CRM hooks" });
    await expect(acceptDrift(team.owner, finding.id)).rejects.toThrow("That drift was already accepted.");

    // Changed once more in the EMS: still accepted, not new.
    await team.sandbox.admin.applyEdits(KEY, [{ kind: "set-url", webhookId: hooks[0].id, url: "https://fourth.example.com/hook" }]);
    expect(await syncAndCheck(trackerId)).toEqual([]);
    expect((await driftRows(planId))[0].status).toBe("accepted");
    const list = await listDrift(team.member);
    expect(list).toMatchObject({ open: 0, accepted: 1 });
  });

  it("Re-apply drafts a plan, reviewed like any, that sets what the plan set on the drifted fields only", async () => {
    const { trackerId, hooks, planId } = await setup();
    await team.sandbox.admin.applyEdits(KEY, [
      { kind: "set-url", webhookId: hooks[0].id, url: "https://old-crm.example.com/hook" },
      { kind: "set-header", target: "webhook", id: hooks[0].id, key: "X-Api-Key", value: "k-someone-else" },
      { kind: "set-enabled", webhookId: hooks[0].id, enabled: !(hooks[0].enabled ?? true) },
    ]);
    const found = await syncAndCheck(trackerId);
    expect(found.map((each) => each.field).sort()).toEqual(["headers", "url"]);
    await team.forget();

    const stranger = await createTeam();
    await expect(draftReapply(stranger, found[0].id)).rejects.toThrow("That drift finding no longer exists, or it is not in your team.");

    // A member may draft: the plan goes to review as any other.
    const { planId: reapplyId } = await draftReapply(team.member, found[0].id);
    const plan = await prisma.changePlan.findUniqueOrThrow({ where: { id: reapplyId } });
    expect(plan).toMatchObject({ status: "draft", authorId: team.member.userId, teamId: team.owner.teamId });
    expect(plan.title).toBe(`Re-apply “Move CRM hooks” on webhook #${hooks[0].id} “${hooks[0].name}”`);
    const steps = await readSteps(reapplyId);
    expect(steps).toHaveLength(1);
    expect(steps[0].operation).toMatchObject({
      operation: "webhooks.update",
      recordId: hooks[0].id,
      changes: { url: PLAN_URL, headers: [expect.objectContaining({ key: "X-Api-Key", value: SECRET })] },
    });
    // Only the drifted fields: "enabled" changed too, but the plan never set it.
    expect(Object.keys(steps[0].operation.changes).sort()).toEqual(["headers", "url"]);
    expect((await driftRows(planId)).every((row) => row.reapplyPlanId === reapplyId)).toBe(true);
  });

  it("a later plan that sets the same field supersedes the earlier plan's finding", async () => {
    const { trackerId, hooks, planId } = await setup();
    await team.sandbox.admin.applyEdits(KEY, [{ kind: "set-url", webhookId: hooks[0].id, url: "https://old-crm.example.com/hook" }]);
    await syncAndCheck(trackerId);
    expect((await driftRows(planId))[0].status).toBe("open");
    await team.forget();
    const fresh = (await team.client().getOne("webhooks", hooks[0].id)).item as Webhook;
    const later = await appliedPlan(team.owner, fresh, "Move again");
    expect((await driftRows(planId))[0].status).toBe("resolved");
    expect(await driftRows(later)).toEqual([]);
  });
});
