// The inbox fed by the plan lifecycle (issue 37 §4): every move a plan makes through the real
// functions (draft, submit, approve, reject, apply against the sandbox over HTTP, a conflict made in
// the EMS, a step the EMS refuses, an undo applied without review) puts the right items in the right
// people's inboxes, never the actor's own, once per occasion however many instances announce it.
import { describe, expect, it } from "vitest";
import type { Actor } from "@/lib/access/actor";
import { prisma } from "@/lib/db/prisma";
import { notifyDrift } from "@/lib/inbox/feed";
import { listInbox } from "@/lib/inbox/list";
import { announcePlanMove } from "@/lib/plans/announce";
import { applyUndoNow, startApply } from "@/lib/plans/apply";
import { draftPlan, draftUndoPlan, storeDraft } from "@/lib/plans/draft";
import { listPlans, loadPlanPage } from "@/lib/plans/page";
import { approvePlan, cancelPlan, rejectPlan, submitPlan } from "@/lib/plans/review";
import { runPlan } from "@/lib/plans/run";
import { DEMO_CREDENTIALS } from "@/lib/sandbox/testing";
import { accountKey } from "@/lib/ems-access/account-key";
import { ensureEmsTestEnv, withEnv } from "@/tests/ems/support/env";
import { addMember } from "../teams/fixtures";
import { planTeamPerTest } from "../plans/support/plan-team";
import { warmPool } from "../setup/db";
import { saveCredential } from "@/lib/credentials/store";
import { credentialFingerprint, flushBudgetUsage } from "@/lib/ems";
import { syncTracker } from "@/lib/history/sync";
import { startTracking } from "@/lib/history/trackers";
import { findDriftAfterSyncs } from "@/lib/plans/drift";

ensureEmsTestEnv();
const team = planTeamPerTest();

/** Each person's items as "kind" strings, oldest first. */
async function inboxOf(...people: Actor[]): Promise<string[][]> {
  return Promise.all(
    people.map(async (person) =>
      (await prisma.inboxItem.findMany({ where: { userId: person.userId }, orderBy: { createdAt: "asc" }, select: { kind: true } })).map((item) => item.kind),
    ),
  );
}

async function firstHook(): Promise<number> {
  return (await team.client().listWebhooks({ perPage: 1, sort: [{ field: "id", direction: "asc" }] })).items[0].id;
}

/** A plan of one webhook rename drafted by `author`, sent for review. */
async function submitted(author: Actor, name = `Inbox ${Math.random()}`): Promise<string> {
  const { planId } = await draftPlan(author, { title: name, edits: [{ kind: "webhook.update", id: await firstHook(), values: { name } }] });
  await submitPlan(author, planId);
  return planId;
}

describe("the inbox hears every plan move, and never the actor", () => {
  it("submitted: every owner and admin but the author; approved: the author; the reviewers' items are then done", async () => {
    const planId = await submitted(team.member, "Rename the CRM hook — Kraków ✓");
    expect(await inboxOf(team.owner, team.admin, team.member)).toEqual([["plan_to_review"], ["plan_to_review"], []]);
    const [ownerItem] = (await listInbox(team.owner, { show: "all", page: 1 })).items;
    expect(ownerItem.sentence).toBe(`${team.member.email} sent the plan “Rename the CRM hook — Kraków ✓” for your review.`);
    expect(ownerItem.planId).toBe(planId);

    await approvePlan(team.admin, planId);
    expect(await inboxOf(team.owner, team.admin, team.member)).toEqual([["plan_to_review"], ["plan_to_review"], ["plan_approved"]]);
    expect((await listInbox(team.member, { show: "unread", page: 1 })).items[0].sentence).toBe(
      `${team.admin.email} approved your plan “Rename the CRM hook — Kraków ✓”.`,
    );
    // Nobody needs to review it any more: no reviewer's count keeps it.
    expect((await listInbox(team.owner, { show: "unread", page: 1 })).unread).toBe(0);
  });

  it("an owner or admin who submits a member's draft is not told of it; the author is not either", async () => {
    const { planId } = await draftPlan(team.member, { edits: [{ kind: "webhook.update", id: await firstHook(), values: { name: "By the owner" } }] });
    await submitPlan(team.owner, planId);
    expect(await inboxOf(team.owner, team.admin, team.member)).toEqual([[], ["plan_to_review"], []]);
  });

  it("rejected: the author, with the reason; cancelled: tells nobody and settles the reviews", async () => {
    const rejected = await submitted(team.member);
    await rejectPlan(team.owner, rejected, "Not on a Friday.");
    const [, , member] = await inboxOf(team.owner, team.admin, team.member);
    expect(member).toEqual(["plan_rejected"]);
    expect((await listInbox(team.member, { show: "all", page: 1 })).items[0].detail).toBe("Not on a Friday.");

    const cancelled = await submitted(team.member);
    await cancelPlan(team.member, cancelled);
    expect(await prisma.inboxItem.count({ where: { planId: cancelled, readAt: null } })).toBe(0);
    expect(await prisma.inboxItem.count({ where: { planId: cancelled, kind: { not: "plan_to_review" } } })).toBe(0);
  });

  it("applied: the author, not the applier", async () => {
    const planId = await submitted(team.member);
    await approvePlan(team.owner, planId);
    await startApply(team.admin, planId);
    expect(await runPlan(planId)).toMatchObject({ status: "applied" });
    const [, admin, member] = await inboxOf(team.owner, team.admin, team.member);
    expect(member).toEqual(["plan_approved", "plan_applied"]);
    expect(admin).toEqual(["plan_to_review"]);
    expect((await listInbox(team.member, { show: "all", page: 1 })).items[0].sentence).toMatch(/^Your plan “.*” was applied by admin/);
  });

  it("stopped on a conflict: the author, with what changed", async () => {
    const planId = await submitted(team.member);
    await approvePlan(team.owner, planId);
    await team.sandbox.admin.applyEdits(DEMO_CREDENTIALS.consumerKey, [{ kind: "set-url", webhookId: await firstHook(), url: "https://changed-by-hand.example.com/" }]);
    await startApply(team.admin, planId);
    expect(await runPlan(planId)).toMatchObject({ status: "conflict" });
    const items = (await listInbox(team.member, { show: "all", page: 1 })).items;
    expect(items.map((item) => item.kind)).toEqual(["plan_conflict", "plan_approved"]);
    expect(items[0].detail).toMatch(/^Changed in the EMS by .* since this plan was made\.$/);
  });

  it("failed: the author, with the EMS's refusal", async () => {
    const key = accountKey(team.sandbox.baseUrl, DEMO_CREDENTIALS.consumerKey);
    const { planId } = await storeDraft(
      team.member,
      { title: "A nameless hook" },
      [{ operation: "webhooks.create", changes: { name: "", url: "https://hooks.example.com/x", trigger_object: "registrant" }, before: null }],
      key,
    );
    await submitPlan(team.member, planId);
    await approvePlan(team.owner, planId);
    await startApply(team.admin, planId);
    expect(await runPlan(planId)).toMatchObject({ status: "failed" });
    const items = (await listInbox(team.member, { show: "all", page: 1 })).items;
    expect(items[0]).toMatchObject({ kind: "plan_failed", detail: "The EMS refused the change: name: Name cannot be blank." });
  });

  it("a fix the portal drafted (no author) reaches every reviewer as a drafted fix, with its own sentence", async () => {
    const key = accountKey(team.sandbox.baseUrl, DEMO_CREDENTIALS.consumerKey);
    const hook = await firstHook();
    const { planId } = await storeDraft(
      team.owner,
      { title: "Add notification emails to 18 groups" },
      [{ operation: "webhooks.update", recordId: hook, changes: { name: "Drafted" }, before: null }],
      key,
    );
    await prisma.changePlan.update({ where: { id: planId }, data: { authorId: null } });
    await submitPlan(team.owner, planId);
    expect(await inboxOf(team.owner, team.admin, team.member)).toEqual([[], ["drafted_fix_to_review"], []]);
    expect((await listInbox(team.admin, { show: "all", page: 1 })).items[0].sentence).toBe(
      "EMS Portal on behalf of the team drafted the fix “Add notification emails to 18 groups”; it waits for your review.",
    );
  });

  it("one occasion announced by several instances at once is one item each", async () => {
    await warmPool(6);
    const planId = await submitted(team.member);
    await prisma.inboxItem.deleteMany({ where: { planId } });
    const told = await Promise.all(Array.from({ length: 6 }, () => announcePlanMove("submitted", planId, team.member)));
    expect(told.reduce((sum, n) => sum + n, 0)).toBe(2);
    expect(await prisma.inboxItem.count({ where: { planId } })).toBe(2);
  });

  it("drift (notifyDrift): the applier and the author, once per finding", async () => {
    const planId = await submitted(team.member);
    await approvePlan(team.owner, planId);
    await startApply(team.admin, planId);
    await runPlan(planId);
    const finding = { teamId: team.owner.teamId, planId, findingKey: "webhook:1:url", detail: "The URL was changed back in the EMS by jane@example.com at 15:02." };
    expect(await notifyDrift(finding)).toBe(2);
    expect(await notifyDrift(finding)).toBe(0);
    expect(await prisma.inboxItem.count({ where: { planId, kind: "drift_on_applied" } })).toBe(2);
    // Another team's plan id names nothing.
    expect(await notifyDrift({ ...finding, teamId: "another-team", findingKey: "webhook:1:name" })).toBe(0);
  });

  it("email follows each person's choice: reviews by default, outcomes only when asked", async () => {
    const restore = withEnv({ SMTP_URL: "smtp://127.0.0.1:1" });
    try {
      const tracker = await prisma.changeTracker.findFirst({ where: { teamId: team.owner.teamId }, select: { id: true } });
      if (!tracker) {
        const key = accountKey(team.sandbox.baseUrl, DEMO_CREDENTIALS.consumerKey);
        await prisma.changeTracker.create({ data: { teamId: team.owner.teamId, accountKey: key, accountLabel: "sandbox", createdById: team.owner.userId } });
      }
      await prisma.inboxPreference.create({ data: { userId: team.admin.userId, teamId: team.admin.teamId, kind: "plan_to_review", email: false, slack: false } });
      await prisma.inboxPreference.create({ data: { userId: team.member.userId, teamId: team.member.teamId, kind: "plan_approved", email: true, slack: false } });
      const planId = await submitted(team.member);
      await approvePlan(team.admin, planId);
      const sent = await prisma.alertDelivery.findMany({
        where: { teamId: team.owner.teamId, syncId: { startsWith: "inbox:" } },
        select: { recipient: true, subject: true },
      });
      expect(sent.map((row) => row.recipient).sort()).toEqual([team.member.email, team.owner.email].sort());
      expect(sent.find((row) => row.recipient === team.member.email)?.subject).toMatch(/^Approved: Inbox /);
    } finally {
      restore();
    }
  });
});

describe("drift found after a sync (issue 37 §3) reaches the inbox", () => {
  it("the plan's applier and author hear of it once, with the finding's sentence; a second sync tells nobody again", async () => {
    process.env.HISTORY_SYNC_BUDGET_PERCENT = "70";
    try {
      await flushBudgetUsage();
      // Only this file's sandbox credential: other files share the database and count their own.
      await prisma.emsBudgetUsage.deleteMany({
        where: { kind: "sync", fingerprint: credentialFingerprint(team.sandbox.baseUrl, DEMO_CREDENTIALS.consumerKey, DEMO_CREDENTIALS.consumerSecret) },
      });
      const existing = await prisma.changeTracker.findFirst({ where: { teamId: team.owner.teamId }, select: { id: true } });
      const trackerId = existing?.id ?? (await startTracking(team.owner, { intervalMinutes: 15 })).id;
      await prisma.changeTracker.update({ where: { id: trackerId }, data: { status: "active", pausedReason: null } });
      await syncTracker(trackerId, { trigger: "manual", force: true });
      const hook = await firstHook();
      const { planId } = await draftPlan(team.member, {
        title: "Move CRM hooks",
        edits: [{ kind: "webhook.update", id: hook, values: { url: "https://crm.example.com/moved" } }],
      });
      await submitPlan(team.member, planId);
      await approvePlan(team.owner, planId);
      await startApply(team.admin, planId);
      expect(await runPlan(planId)).toMatchObject({ status: "applied" });

      await team.sandbox.admin.applyEdits(DEMO_CREDENTIALS.consumerKey, [
        { kind: "set-url", webhookId: hook, url: "https://old-crm.example.com/hook", by: "jane@example.com" },
      ]);
      const sync = async () => {
        const outcome = await syncTracker(trackerId, { trigger: "manual", force: true });
        if (outcome.status !== "ok") throw new Error(`sync: ${JSON.stringify(outcome)}`);
        return findDriftAfterSyncs([outcome.syncId]);
      };
      expect(await sync()).toHaveLength(1);
      const told = await prisma.inboxItem.findMany({ where: { planId, kind: "drift_on_applied" }, select: { userId: true, detail: true } });
      expect(told.map((item) => item.userId).sort()).toEqual([team.admin.userId, team.member.userId].sort());
      expect(told[0].detail).toMatch(/^The URL that plan “Move CRM hooks” set on webhook #\d+ .* was changed in the EMS by jane@example\.com\.$/);
      expect((await listInbox(team.admin, { show: "unread", page: 1 })).items[0].sentence).toBe(
        "A record that your plan “Move CRM hooks” set was changed again in the EMS.",
      );
      expect(await sync()).toEqual([]);
      expect(await prisma.inboxItem.count({ where: { planId, kind: "drift_on_applied" } })).toBe(2);
    } finally {
      delete process.env.HISTORY_SYNC_BUDGET_PERCENT;
    }
  });
});

describe("an undo applied without a second approval (issue 37 §4)", () => {
  it("an admin applies the undo of a plan applied minutes ago: audited, every owner told, the plan reads Undone", async () => {
    const secondOwner = await addMember(team.owner, "OWNER");
    await saveCredential(secondOwner, { baseUrl: team.sandbox.baseUrl, ...DEMO_CREDENTIALS }, {}, { check: false });
    const planId = await submitted(team.member);
    await approvePlan(team.owner, planId);
    await startApply(team.owner, planId);
    expect(await runPlan(planId)).toMatchObject({ status: "applied" });
    expect((await loadPlanPage(team.admin, planId)).shownStatus).toBe("applied");

    const { planId: undoId } = await draftUndoPlan(team.admin, planId);
    expect((await loadPlanPage(team.admin, undoId)).can).toMatchObject({ applyUndo: true, approve: false, apply: false });
    await applyUndoNow(team.admin, undoId);
    expect(await runPlan(undoId)).toMatchObject({ status: "applied" });

    expect(
      await prisma.auditLog.count({ where: { teamId: team.owner.teamId, action: "plan.undo_applied_without_review", target: undoId, actorId: team.admin.userId } }),
    ).toBe(1);
    const told = await prisma.inboxItem.findMany({ where: { planId: undoId, kind: "undo_without_review" }, select: { userId: true } });
    expect(told.map((item) => item.userId).sort()).toEqual([team.owner.userId, secondOwner.userId].sort());
    expect((await loadPlanPage(team.member, planId)).shownStatus).toBe("undone");
    const listed = await listPlans(team.member, "all");
    expect(listed.items.find((item) => item.id === planId)?.shownStatus).toBe("undone");
    expect((await listPlans(team.member, "applied")).items.map((item) => item.id)).not.toContain(planId);
    expect((await listPlans(team.member, "reverted")).items.map((item) => item.id)).toContain(planId);
  });

  it("the undo of a plan applied 25 hours ago keeps the normal review", async () => {
    const planId = await submitted(team.member);
    await approvePlan(team.owner, planId);
    await startApply(team.owner, planId);
    await runPlan(planId);
    const dayAndHourAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
    await prisma.$executeRaw`UPDATE "ChangePlan" SET "appliedAt" = ${dayAndHourAgo}, "updatedAt" = ${dayAndHourAgo} WHERE "id" = ${planId}`;
    const { planId: undoId } = await draftUndoPlan(team.admin, planId);
    expect((await loadPlanPage(team.admin, undoId)).can.applyUndo).toBe(false);
    await expect(applyUndoNow(team.admin, undoId)).rejects.toThrow(/last 24 hours/);
    expect(await prisma.changePlan.findUniqueOrThrow({ where: { id: undoId }, select: { status: true } })).toEqual({ status: "draft" });
  });
});
