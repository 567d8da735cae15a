import { beforeEach, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/access/actor";
import { prisma } from "@/lib/db/prisma";
import { WEBHOOK_FIELDS, type Webhook } from "@/lib/ems";
import { draftPlan, draftReplan, draftUndoPlan, NothingToChangeError } from "@/lib/plans/draft";
import { EditProblemsError } from "@/lib/plans/edits";
import { startApply, PlanNotApprovedError } from "@/lib/plans/apply";
import { approvePlan, cancelPlan, INTRODUCED_BY_AUTHOR_MESSAGE, planReviewSetting, rejectPlan, reviewRequired, setPlanReview, submitPlan } from "@/lib/plans/review";
import { loadPlanPage } from "@/lib/plans/page";
import { saveCredential } from "@/lib/credentials/store";
import { changeMemberRole } from "@/lib/teams/members";
import { createInvitation, redeemInvitation } from "@/lib/teams/invitations";
import { duePlanIds, runDuePlans } from "@/lib/plans/run";
import { readSteps } from "@/lib/plans/store";
import { draftUndoChange } from "@/lib/plans/undo-change";
import { syncTracker } from "@/lib/history/sync";
import { metrics } from "@/lib/telemetry/metrics";
import { startTracking } from "@/lib/history/trackers";
import { DEMO_CREDENTIALS, type StartedSandbox } from "@/lib/sandbox/testing";
import { ensureEmsTestEnv } from "@/tests/ems/support/env";
import { actorFor, createTeam, createUser, membershipIdOf } from "../teams/fixtures";
import { withOwnDatabase } from "../setup/db";
import { planTeamPerTest } from "./support/plan-team";

/**
 * A plan's whole life on the real PostgreSQL against the sandbox over HTTP (issue 27 §2): a member
 * drafts, the author cannot approve their own plan, a stale session cannot approve or apply, another
 * admin approves, the plan runs as the job would run it, the sandbox holds the change, and undo
 * puts it back through the same review. Header values are kept from the EMS and never stored in
 * the clear.
 */
ensureEmsTestEnv();
// runDuePlans takes up every due plan in the database: other files' plans must not be among them
// (offers-match-server.db.test.ts saw its "approved, started" plan run by this file's runs).
withOwnDatabase();

let sandbox: StartedSandbox;
let owner: Actor;
let admin: Actor;
let member: Actor;
let hook: Webhook;

const team = planTeamPerTest();
const client = () => team.client();
const stale = (actor: Actor): Actor => ({ ...actor, reauthenticatedAt: new Date(Date.now() - 86_400_000), passwordVerifiedAt: new Date(Date.now() - 86_400_000) });
const read = async (id: number) => (await client().getOne("webhooks", id, { fields: [...WEBHOOK_FIELDS] })).item as Webhook;
const statusOf = async (planId: string) => (await prisma.changePlan.findUniqueOrThrow({ where: { id: planId } })).status;

beforeEach(async () => {
  ({ sandbox, owner, admin, member } = team);
  // A webhook with a header: its value must survive an edit of the URL and never be stored in the clear.
  const first = (await client().listWebhooks({ perPage: 1, sort: [{ field: "id", direction: "asc" }] })).items[0];
  await sandbox.admin.applyEdits(DEMO_CREDENTIALS.consumerKey, [{ kind: "set-header", target: "webhook", id: first.id, key: "X-Api-Key", value: "k-lifecycle-secret" }]);
  hook = await read(first.id);
});

describe("header rows a plan may hold", () => {
  it("refuses a value with a line break or a name that is not an HTTP token, whatever calls the drafting", async () => {
    const refused = [
      { key: "X-Api-Key", action: "replace" as const, value: "k-1\r\nX-Injected: yes" },
      { key: "X-A: b", action: "add" as const, value: "v" },
    ];
    for (const header of refused) {
      await expect(draftPlan(member, { edits: [{ kind: "webhook.update", id: hook.id, values: { headers: [header] } }] })).rejects.toBeInstanceOf(EditProblemsError);
    }
    expect(await prisma.changePlan.count({ where: { teamId: owner.teamId } })).toBe(0);
  });
});

describe("who counts as a second approver", () => {
  it("not someone the author made an owner or admin after sending the plan for review: invited by them, or promoted by them", async () => {
    const { planId } = await draftPlan(owner, { edits: [{ kind: "webhook.update", id: hook.id, values: { name: "Approved by my other self" } }] });
    await submitPlan(owner, planId);
    expect(await reviewRequired(owner.teamId)).toBe(true);

    // A second address of the author's, invited as an admin after the plan waits for review.
    const { token } = await createInvitation(owner, { role: "ADMIN" });
    const sock = await createUser("Second self");
    await prisma.$transaction((tx) => redeemInvitation(tx, { token, userId: sock.id, email: sock.email }));
    const sockActor = await actorFor(sock.id);
    await saveCredential(sockActor, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS }, {}, { check: false });
    await expect(approvePlan(sockActor, planId)).rejects.toMatchObject({ code: "forbidden", message: INTRODUCED_BY_AUTHOR_MESSAGE });
    expect((await loadPlanPage(sockActor, planId)).approveBlockedBecause).toBe(INTRODUCED_BY_AUTHOR_MESSAGE);

    // A member the author promotes to admin afterwards: the same.
    await changeMemberRole(owner, { membershipId: await membershipIdOf(member), role: "ADMIN" });
    await expect(approvePlan(member, planId)).rejects.toMatchObject({ code: "forbidden", message: INTRODUCED_BY_AUTHOR_MESSAGE });
    expect(await statusOf(planId)).toBe("submitted");

    // The admin who was there before approves it.
    await approvePlan(admin, planId);
    expect(await statusOf(planId)).toBe("approved");
  });
});

describe("a plan from draft to applied, and undone", () => {
  it("member drafts, another admin approves, it applies, the change is in the EMS, undo restores it", async () => {
    const url = `https://moved.example.com/${hook.id}`;
    const { planId, operations } = await draftPlan(member, { edits: [{ kind: "webhook.update", id: hook.id, values: { url } }] });
    expect(operations).toBe(1);
    const [step] = await readSteps(planId);
    expect(step.operation.changes).toEqual({ url });
    expect(step.expectedUpdatedAt).toBe(hook.updated_at);
    // Header values are in the before-state (undo needs them), encrypted: not in any column in the clear.
    const raw = JSON.stringify(await prisma.changePlanStep.findMany({ where: { planId } }));
    expect(raw).not.toContain("k-lifecycle-secret");
    expect(JSON.stringify(step.operation.before)).toContain("k-lifecycle-secret");

    // Two owners and admins: review is on by default; members neither approve nor apply.
    expect(await reviewRequired(owner.teamId)).toBe(true);
    await submitPlan(member, planId);
    await expect(approvePlan(member, planId)).rejects.toMatchObject({ code: "forbidden" });
    await expect(approvePlan(stale(admin), planId)).rejects.toMatchObject({ name: "ReauthRequired" });
    await approvePlan(admin, planId);
    expect(await statusOf(planId)).toBe("approved");
    await expect(startApply(member, planId)).rejects.toMatchObject({ code: "forbidden" });
    await expect(startApply(stale(owner), planId)).rejects.toMatchObject({ name: "ReauthRequired" });
    expect(await duePlanIds()).not.toContain(planId);

    await startApply(owner, planId);
    expect(await duePlanIds()).toContain(planId);
    await runDuePlans();
    expect(await statusOf(planId)).toBe("applied");
    const changed = await read(hook.id);
    expect(changed.url).toBe(url);
    expect(changed.headers).toEqual(hook.headers);
    expect(changed.updated_by).toBe(`API (${DEMO_CREDENTIALS.consumerKey})`);

    // Undo: a new plan, reviewed the same way, that puts the URL back.
    const undo = await draftUndoPlan(member, planId);
    const [back] = await readSteps(undo.planId);
    expect(back.operation.changes).toEqual({ url: hook.url });
    expect(back.expectedUpdatedAt).toBe(changed.updated_at);
    await submitPlan(member, undo.planId);
    await approvePlan(owner, undo.planId);
    await startApply(admin, undo.planId);
    await runDuePlans();
    expect(await statusOf(undo.planId)).toBe("applied");
    expect((await read(hook.id)).url).toBe(hook.url);

    const actions = (await prisma.auditLog.findMany({ where: { teamId: owner.teamId, action: { startsWith: "plan." } }, orderBy: { createdAt: "asc" } })).map(
      (entry) => entry.action,
    );
    expect(actions).toEqual(expect.arrayContaining(["plan.drafted", "plan.submitted", "plan.approved", "plan.apply_started", "plan.applied"]));
  });

  it("the author cannot approve their own plan while review is on; with it off, they can", async () => {
    const { planId } = await draftPlan(admin, { edits: [{ kind: "webhook.update", id: hook.id, values: { enabled: !hook.enabled } }] });
    await submitPlan(admin, planId);
    await expect(approvePlan(admin, planId)).rejects.toMatchObject({ code: "forbidden", message: expect.stringMatching(/another owner or admin/) });
    await prisma.team.update({ where: { id: owner.teamId }, data: { planReview: false } });
    await approvePlan(admin, planId);
    expect(await statusOf(planId)).toBe("approved");
  });

  it("a draft is edited by drafting it again: the old one is cancelled; nobody else's, and no submitted plan, can be replaced", async () => {
    const first = await draftPlan(member, { edits: [{ kind: "webhook.update", id: hook.id, values: { name: "First try" } }] });
    const second = await draftPlan(member, { edits: [{ kind: "webhook.update", id: hook.id, values: { name: "Second try" } }], replacesPlanId: first.planId });
    expect(await statusOf(first.planId)).toBe("cancelled");
    expect(await statusOf(second.planId)).toBe("draft");
    await expect(
      draftPlan(admin, { edits: [{ kind: "webhook.update", id: hook.id, values: { name: "Not mine" } }], replacesPlanId: second.planId }),
    ).rejects.toMatchObject({ code: "plan_not_draft" });
    await submitPlan(member, second.planId);
    await expect(
      draftPlan(member, { edits: [{ kind: "webhook.update", id: hook.id, values: { name: "Too late" } }], replacesPlanId: second.planId }),
    ).rejects.toMatchObject({ code: "plan_not_draft" });
    expect(await statusOf(second.planId)).toBe("submitted");
  });

  it("a record changed in the EMS after planning stops its step as a conflict; planning the rest again starts from the record as it is", async () => {
    const { planId } = await draftPlan(member, { edits: [{ kind: "webhook.update", id: hook.id, values: { url: "https://ours.example.com/in" } }] });
    await submitPlan(member, planId);
    await approvePlan(admin, planId);
    await sandbox.admin.applyEdits(DEMO_CREDENTIALS.consumerKey, [{ kind: "set-url", webhookId: hook.id, url: "https://theirs.example.com/in", by: "Jane in the EMS" }]);
    await startApply(owner, planId);
    await runDuePlans();
    expect(await statusOf(planId)).toBe("conflict");
    const [stopped] = await readSteps(planId);
    expect(stopped.state).toBe("conflict");
    expect(stopped.message).toMatch(/^Changed in the EMS by Jane in the EMS at .+ since this plan was made\.$/);
    expect((await read(hook.id)).url).toBe("https://theirs.example.com/in");

    const again = await draftReplan(member, planId);
    const [step] = await readSteps(again.planId);
    expect(step.operation.changes).toEqual({ url: "https://ours.example.com/in" });
    expect((step.operation.before as Webhook).url).toBe("https://theirs.example.com/in");
    expect(step.expectedUpdatedAt).toBe((await read(hook.id)).updated_at);
  });

  it("only an owner with a recent password sets whether plans need a second person", async () => {
    await expect(setPlanReview(admin, false)).rejects.toMatchObject({ code: "forbidden" });
    await expect(setPlanReview(stale(owner), false)).rejects.toMatchObject({ name: "ReauthRequired" });
    await setPlanReview(owner, false);
    expect(await planReviewSetting(owner)).toEqual({ setting: false, effective: false });
    await setPlanReview(owner, null);
    expect(await planReviewSetting(owner)).toEqual({ setting: null, effective: true });
  });

  it("a plan whose steps change after approval needs approval again", async () => {
    const { planId } = await draftPlan(member, { edits: [{ kind: "webhook.update", id: hook.id, values: { name: "Approved name" } }] });
    await submitPlan(member, planId);
    await approvePlan(admin, planId);
    // The step changes after the approval (here: the record it writes to).
    const other = (await client().listWebhooks({ perPage: 2, sort: [{ field: "id", direction: "asc" }] })).items[1];
    await prisma.changePlanStep.updateMany({ where: { planId }, data: { recordId: other.id } });
    await expect(startApply(owner, planId)).rejects.toBeInstanceOf(PlanNotApprovedError);
    expect((await read(hook.id)).name).toBe(hook.name);
    expect((await read(other.id)).name).toBe(other.name);
  });

  it("rejects with a reason; cancels before it runs; nothing reaches the EMS", async () => {
    const one = await draftPlan(member, { edits: [{ kind: "webhook.delete", id: hook.id }] });
    await submitPlan(member, one.planId);
    await rejectPlan(owner, one.planId, "Not during the summit");
    expect(await prisma.changePlan.findUniqueOrThrow({ where: { id: one.planId } })).toMatchObject({ status: "rejected", rejectReason: "Not during the summit" });
    await expect(approvePlan(admin, one.planId)).rejects.toMatchObject({ code: "plan_state" });

    const two = await draftPlan(member, { edits: [{ kind: "webhook.delete", id: hook.id }] });
    await cancelPlan(member, two.planId);
    expect(await statusOf(two.planId)).toBe("cancelled");
    expect(await read(hook.id)).toBeTruthy();
  });

  it("bad edits get each field's message and plan nothing; an edit that changes nothing is refused", async () => {
    const before = await prisma.changePlan.count({ where: { teamId: owner.teamId } });
    const problems = await draftPlan(member, { edits: [{ kind: "webhook.update", id: hook.id, values: { url: "ftp://nope", name: "" } }] }).catch(
      (error: unknown) => error,
    );
    expect(problems).toBeInstanceOf(EditProblemsError);
    expect((problems as EditProblemsError).problems.map((problem) => problem.field).sort()).toEqual(["name", "url"]);
    await expect(draftPlan(member, { edits: [{ kind: "webhook.update", id: hook.id, values: { url: hook.url } }] })).rejects.toBeInstanceOf(NothingToChangeError);
    await expect(draftPlan(member, { edits: [{ kind: "webhook.update", id: 999_999_999, values: { url: "https://x.example" } }] })).rejects.toBeInstanceOf(
      EditProblemsError,
    );
    expect(await prisma.changePlan.count({ where: { teamId: owner.teamId } })).toBe(before);
  });

  it("replacing one header keeps the others' values from the EMS", async () => {
    await sandbox.admin.applyEdits(DEMO_CREDENTIALS.consumerKey, [{ kind: "set-header", target: "webhook", id: hook.id, key: "X-Team", value: "team-value" }]);
    const { planId } = await draftPlan(member, {
      edits: [{ kind: "webhook.update", id: hook.id, values: { headers: [{ key: "x-api-key", action: "replace", value: "k-new" }] } }],
    });
    const [step] = await readSteps(planId);
    // Every other header the webhook has (the demo data gives some their own) goes with its value.
    const others = (hook.headers ?? []).filter((header) => header.key !== "X-Api-Key");
    expect(others.length).toBeGreaterThan(0);
    expect(step.operation.changes).toEqual({
      headers: [
        ...(hook.headers ?? []).map((header) => (header.key === "X-Api-Key" ? { key: "X-Api-Key", value: "k-new" } : header)),
        { key: "X-Team", value: "team-value" },
      ],
    });
  });

  it("a fault at step 3 of 5 stops the plan there; resuming finishes it and no step runs twice", async () => {
    const group = hook.group_id!;
    const names = [1, 2, 3, 4, 5].map((n) => `Resume ${n} ${owner.teamId.slice(-6)}`);
    const { planId } = await draftPlan(member, {
      edits: names.map((name) => ({
        kind: "webhook.create" as const,
        values: { name, url: "https://resume.example.com/in", trigger_object: "registrant", group_id: group },
      })),
    });
    await submitPlan(member, planId);
    await approvePlan(admin, planId);
    // The third write is refused by the EMS (a 422); the others would go through.
    const counted = async (state: string) =>
      (await metrics().planSteps.get()).values.find((value) => value.labels.operation === "webhooks.create" && value.labels.state === state)?.value ?? 0;
    const [appliedBefore, failedBefore] = [await counted("applied"), await counted("failed")];
    await sandbox.admin.injectFaults({ count: 1, status: 422, paths: "write", skip: 2 });
    await startApply(owner, planId);
    await runDuePlans();
    expect(await statusOf(planId)).toBe("failed");
    expect((await readSteps(planId)).map((step) => step.state)).toEqual(["applied", "applied", "failed", "pending", "pending"]);

    await sandbox.admin.clearFaults();
    await startApply(owner, planId);
    await runDuePlans();
    expect(await statusOf(planId)).toBe("applied");
    for (const name of names) {
      const found = await client().listWebhooks({ fields: ["id", "name"], search: [{ field: "name", operator: "=", value: name }] });
      expect(found.items, name).toHaveLength(1);
    }
    // /api/metrics counts each step's outcome (plan_steps_total).
    expect([(await counted("applied")) - appliedBefore, (await counted("failed")) - failedBefore]).toEqual([5, 1]);
  });

  it("the change history shows an applied plan's changes as the person's, through EMS Portal", async () => {
    await startTracking(owner, { intervalMinutes: 15 });
    const tracker = await prisma.changeTracker.findFirstOrThrow({ where: { teamId: owner.teamId } });
    await syncTracker(tracker.id, { trigger: "manual", force: true });
    const { planId } = await draftPlan(member, { edits: [{ kind: "webhook.update", id: hook.id, values: { url: `https://attributed.example.com/${hook.id}` } }] });
    await submitPlan(member, planId);
    await approvePlan(admin, planId);
    await startApply(owner, planId);
    await runDuePlans();
    const change = await prisma.setupChange.findFirstOrThrow({ where: { trackerId: tracker.id, kind: "webhook", recordId: hook.id, field: "url" } });
    expect(change.after).toBe(`https://attributed.example.com/${hook.id}`);
    expect(change.changedBy).toBe(`${owner.email} through EMS Portal`);
  });

  it("one change of the Changes feed becomes a plan that puts it back, header values included", async () => {
    await startTracking(owner, { intervalMinutes: 15 });
    const tracker = await prisma.changeTracker.findFirstOrThrow({ where: { teamId: owner.teamId } });
    await syncTracker(tracker.id, { trigger: "manual", force: true });
    // Someone edits the webhook in the EMS: a new URL, and a new value for its key header.
    await sandbox.admin.applyEdits(DEMO_CREDENTIALS.consumerKey, [
      { kind: "set-url", webhookId: hook.id, url: "https://elsewhere.example.net/in" },
      { kind: "set-header", target: "webhook", id: hook.id, key: "X-Api-Key", value: "k-stolen" },
    ]);
    await team.forget();
    await syncTracker(tracker.id, { trigger: "manual", force: true });
    const urlChange = await prisma.setupChange.findFirstOrThrow({ where: { trackerId: tracker.id, recordId: hook.id, field: "url" } });
    const headerChange = await prisma.setupChange.findFirstOrThrow({ where: { trackerId: tracker.id, recordId: hook.id, field: "headers" } });

    const back = await draftUndoChange(member, urlChange.id);
    expect((await readSteps(back.planId))[0].operation.changes).toEqual({ url: hook.url });
    const keys = await draftUndoChange(member, headerChange.id);
    expect((await readSteps(keys.planId))[0].operation.changes).toEqual({ headers: hook.headers });
    // Another team cannot reach the change at all.
    await expect(draftUndoChange(await createTeam(), urlChange.id)).rejects.toMatchObject({ code: "not_found" });
  });

  it("another team's plan is not found for anything", async () => {
    const { planId } = await draftPlan(member, { edits: [{ kind: "webhook.update", id: hook.id, values: { enabled: !hook.enabled } }] });
    const stranger = await createTeam();
    const attempts = [submitPlan, approvePlan, cancelPlan, startApply, draftUndoPlan];
    for (const attempt of attempts) await expect(attempt(stranger, planId)).rejects.toMatchObject({ code: "not_found" });
  });
});
