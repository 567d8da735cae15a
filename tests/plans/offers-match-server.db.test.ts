import { beforeEach, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/access/actor";
import { saveCredential } from "@/lib/credentials/store";
import { prisma } from "@/lib/db/prisma";
import { SafeError } from "@/lib/errors";
import type { PlanStatus } from "@/lib/generated/prisma/enums";
import { applyUndoNow, startApply } from "@/lib/plans/apply";
import { approveAndApplyPlan } from "@/lib/plans/approve-and-apply";
import { draftPlan, draftReplan, draftUndoPlan } from "@/lib/plans/draft";
import { loadPlanPage, type PlanPageData } from "@/lib/plans/page";
import { approvePlan, cancelPlan, planDigest, rejectPlan, submitPlan } from "@/lib/plans/review";
import { DEMO_CREDENTIALS } from "@/lib/sandbox/testing";
import { ensureEmsTestEnv } from "@/tests/ems/support/env";
import { addMember } from "../teams/fixtures";
import { planTeamPerTest } from "./support/plan-team";

/**
 * What the plan page offers is what the server allows (issue 36 §1): for every status a plan can be
 * in (and an approved plan an applier already started) and every kind of person (owner, admin, the
 * member who drafted it, another member), each button the page shows is a call the server's
 * function accepts, and each button it hides is a call the server refuses. Real plans, the real
 * functions, the sandbox over HTTP.
 */
ensureEmsTestEnv();

const team = planTeamPerTest();

type Button = keyof PlanPageData["can"];
/**
 * Undo cases (issue 37 §4): the undo of a plan applied an hour ago (a draft, sent for review,
 * approved) may be applied without review by owners and admins; the undo of a plan applied 25
 * hours ago may not.
 */
type UndoCase = "undo-recent-draft" | "undo-recent-submitted" | "undo-recent-approved" | "undo-old-draft" | "undo-old-submitted";
type Case = PlanStatus | "approved-started" | UndoCase;
const CASES: Case[] = [
  "draft",
  "submitted",
  "approved",
  "approved-started",
  "rejected",
  "applying",
  "applied",
  "failed",
  "conflict",
  "cancelled",
  "undo-recent-draft",
  "undo-recent-submitted",
  "undo-recent-approved",
  "undo-old-draft",
  "undo-old-submitted",
];

/** The server's function behind each button (the page's one "Cancel" also stops a plan being applied). */
const SERVER: Record<Button, (actor: Actor, planId: string) => Promise<unknown>> = {
  submit: (actor, planId) => submitPlan(actor, planId),
  approve: (actor, planId) => approvePlan(actor, planId),
  reject: (actor, planId) => rejectPlan(actor, planId, "Not this way."),
  apply: (actor, planId) => startApply(actor, planId),
  applyUndo: (actor, planId) => applyUndoNow(actor, planId),
  cancel: (actor, planId) => cancelPlan(actor, planId),
  replan: (actor, planId) => draftReplan(actor, planId),
  undo: (actor, planId) => draftUndoPlan(actor, planId),
  approveAndApply: (actor, planId) => approveAndApplyPlan(actor, planId),
};
const BUTTONS = Object.keys(SERVER) as Button[];

let other: Actor;
let hookIds: number[];

beforeEach(async () => {
  other = await addMember(team.owner, "MEMBER");
  await saveCredential(other, { baseUrl: team.sandbox.baseUrl, ...DEMO_CREDENTIALS }, {}, { check: false });
  hookIds = (await team.client().listWebhooks({ perPage: 2, sort: [{ field: "id", direction: "asc" }] })).items.map((hook) => hook.id);
});

const HOUR = 60 * 60 * 1000;

/** An undo (by the member) of an applied plan, applied `hoursAgo`, in the state the case names. */
async function undoIn(kind: UndoCase): Promise<string> {
  const original = await planIn("applied");
  const hoursAgo = kind.startsWith("undo-recent") ? 1 : 25;
  await prisma.changePlan.update({ where: { id: original }, data: { appliedAt: new Date(Date.now() - hoursAgo * HOUR) } });
  // updatedAt is @updatedAt: set it apart, as a plan applied then would have it.
  await prisma.$executeRaw`UPDATE "ChangePlan" SET "updatedAt" = ${new Date(Date.now() - hoursAgo * HOUR)} WHERE "id" = ${original}`;
  const state = kind.endsWith("-draft") ? "draft" : kind.endsWith("-submitted") ? "submitted" : "approved";
  const undo = await planIn(state);
  await prisma.changePlan.update({ where: { id: undo }, data: { revertsPlanId: original, title: `Undo “${original}”` } });
  return undo;
}

/**
 * A plan of two changes drafted by the member, put in the state of `kind` (its steps' states to
 * match); `drafted`: made a fix the team's check policy drafted instead (no author, a check).
 */
async function planIn(kind: Case, drafted = false): Promise<string> {
  if (kind.startsWith("undo-")) return undoIn(kind as UndoCase);
  const { planId } = await draftPlan(team.member, {
    edits: hookIds.map((id, index) => ({ kind: "webhook.update" as const, id, values: { name: `Offered ${kind} ${index} ${Math.random()}` } })),
  });
  const steps = await prisma.changePlanStep.findMany({ where: { planId }, orderBy: { position: "asc" }, select: { id: true } });
  const stepStates: Partial<Record<Case, [string, string]>> = {
    applying: ["applied", "pending"],
    applied: ["applied", "applied"],
    failed: ["applied", "failed"],
    conflict: ["applied", "conflict"],
    cancelled: ["applied", "skipped"],
  };
  const states = stepStates[kind];
  if (states) for (const [index, state] of states.entries()) await prisma.changePlanStep.update({ where: { id: steps[index].id }, data: { state } });
  const status: PlanStatus = kind === "approved-started" ? "approved" : (kind as PlanStatus);
  const submittedAt = kind === "draft" ? null : new Date(Date.now() - 60_000);
  const reviewed = status !== "draft" && status !== "submitted" && status !== "rejected";
  await prisma.changePlan.update({
    where: { id: planId },
    data: {
      status,
      submittedAt,
      ...(reviewed ? { approvedById: team.admin.userId, approvedByEmail: team.admin.email, approvedAt: new Date(), approvedDigest: await planDigest(planId) } : {}),
      ...(kind === "approved-started" || ["applying", "applied", "failed", "conflict", "cancelled"].includes(status) ? { appliedById: team.admin.userId } : {}),
      // Applying: an applier holds it now (the page offers to stop it before its next step).
      ...(status === "applying" ? { leaseId: "a-live-applier", leaseUntil: new Date(Date.now() + 60_000) } : {}),
      ...(drafted ? { authorId: null, fixCheck: "plain-http-url" } : {}),
    },
  });
  return planId;
}

/** Whether the server's function accepts the call: refusals are SafeErrors (403, state, account); anything else fails the test. */
async function serverAllows(button: Button, actor: Actor, planId: string): Promise<boolean> {
  try {
    await SERVER[button](actor, planId);
    return true;
  } catch (error) {
    if (error instanceof SafeError) return false;
    throw error;
  }
}

describe("the plan page offers exactly what the server allows", () => {
  for (const kind of CASES) {
    it(`a plan ${kind}: every button, for the owner, an admin, its author (a member) and another member`, async () => {
      const people = { owner: team.owner, admin: team.admin, author: team.member, "another member": other };
      const mismatches: string[] = [];
      for (const [name, actor] of Object.entries(people)) {
        let planId = await planIn(kind);
        const offered = (await loadPlanPage(actor, planId)).can;
        for (const button of BUTTONS) {
          const allowed = await serverAllows(button, actor, planId);
          if (allowed !== offered[button])
            mismatches.push(`${name} / ${button}: page ${offered[button] ? "offers" : "hides"} it, server ${allowed ? "allows" : "refuses"}`);
          // A call that went through moved the plan on: the next button is tried on a fresh one.
          if (allowed) planId = await planIn(kind);
        }
      }
      expect(mismatches).toEqual([]);
    });
  }
});

describe("a drafted fix's page offers exactly what the server allows, “Approve and apply” included", () => {
  for (const kind of CASES) {
    it(`a drafted fix ${kind}: every button, for the owner, an admin and a member`, async () => {
      const people = { owner: team.owner, admin: team.admin, member: team.member };
      const mismatches: string[] = [];
      for (const [name, actor] of Object.entries(people)) {
        let planId = await planIn(kind, true);
        const offered = (await loadPlanPage(actor, planId)).can;
        for (const button of BUTTONS) {
          const allowed = await serverAllows(button, actor, planId);
          if (allowed !== offered[button])
            mismatches.push(`${name} / ${button}: page ${offered[button] ? "offers" : "hides"} it, server ${allowed ? "allows" : "refuses"}`);
          if (allowed) planId = await planIn(kind, true);
        }
      }
      expect(mismatches).toEqual([]);
    });
  }

  it("a reviewer's one step leaves the plan approved by them and started by them; a member's is refused and changes nothing", async () => {
    const planId = await planIn("submitted", true);
    await expect(approveAndApplyPlan(team.member, planId)).rejects.toMatchObject({ code: "forbidden" });
    expect(await prisma.changePlan.findUniqueOrThrow({ where: { id: planId } })).toMatchObject({ status: "submitted", approvedById: null, appliedById: null });
    await approveAndApplyPlan(team.admin, planId);
    expect(await prisma.changePlan.findUniqueOrThrow({ where: { id: planId } })).toMatchObject({
      status: "approved",
      approvedById: team.admin.userId,
      appliedById: team.admin.userId,
    });
    const audited = await prisma.auditLog.findMany({ where: { target: planId }, orderBy: { createdAt: "asc" }, select: { action: true } });
    expect(audited.map((record) => record.action)).toEqual(["plan.drafted", "plan.approved", "plan.apply_started"]);
  });

  it("a person's plan is never approved and applied in one step, even by a reviewer", async () => {
    const planId = await planIn("submitted");
    expect((await loadPlanPage(team.admin, planId)).can.approveAndApply).toBe(false);
    await expect(approveAndApplyPlan(team.admin, planId)).rejects.toMatchObject({ message: "Only a fix EMS Portal drafted is approved and applied in one step." });
  });
});
