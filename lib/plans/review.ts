import "server-only";
import { createHash } from "node:crypto";
import type { Actor } from "@/lib/access/actor";
import { currentRole, type RequestContext } from "@/lib/access/guards";
import { assertRecentPassword } from "@/lib/access/recent-auth";
import { hasPermission } from "@/lib/access/roles";
import { auditByActor } from "@/lib/audit/log";
import { prisma, type TransactionClient } from "@/lib/db/prisma";
import { ForbiddenError } from "@/lib/errors";
import { PLAN_TRANSITIONS, PlanStatus } from "./lifecycle";
import { announcePlanMove } from "./announce";
import { authorise, FACT_COLUMNS, planFacts, planFor, planOfTeam, PlanStateError, reviewRequired } from "./plan-access";
import { stepChanges } from "./store";

/**
 * Review (issue 27 §2): a plan goes draft → submitted → approved (or rejected), then is applied.
 * - With review on (the team setting; by default on for teams with two or more owners and admins),
 *   the approver is an owner or admin other than the plan's author. With it off, an owner or admin
 *   may approve their own plan (still a deliberate step, with a recent password).
 * - Approving needs a recent password, as applying does: a stale cookie changes nothing in the EMS.
 * - An approval is of the content: the digest of the steps is stored with it, and apply refuses a
 *   plan whose steps no longer match (a plan changed after approval needs approval again).
 * Every transition is one conditional UPDATE from the state it expects, so two people acting on a
 * plan at once cannot both win.
 */

export { PlanStateError, reviewRequired, madeManagerBy, readsAccount } from "./plan-access";
export { INTRODUCED_BY_AUTHOR_MESSAGE, OTHER_ACCOUNT_MESSAGE, type PlanStatus } from "./lifecycle";

/**
 * What an approval is of: the steps' operations, records and changes, in order. Read a batch of
 * steps at a time and only the columns hashed: the before-states (what the apply checks before
 * sending, and most of a step's bytes) are neither read nor decrypted.
 */
export async function planDigest(planId: string, tx: TransactionClient = prisma): Promise<string> {
  const hash = createHash("sha256");
  // What is sent, to which record: not what the apply checks before sending (it moves along as
  // earlier steps of the plan change the same record).
  for await (const step of stepChanges(planId, tx)) hash.update(JSON.stringify([step.position, step.operation, step.recordId, step.changes]));
  return hash.digest("hex");
}

/** The move's conditional UPDATE: from the states the table starts it from, to the one it leads to. */
async function transition(
  planId: string,
  move: "submit" | "approve" | "reject" | "cancel",
  data: Omit<Parameters<typeof prisma.changePlan.updateMany>[0]["data"], "status">,
  tx: TransactionClient = prisma,
): Promise<boolean> {
  const { from, to } = PLAN_TRANSITIONS[move];
  const moved = await tx.changePlan.updateMany({ where: { id: planId, status: { in: [...from] } }, data: { ...data, status: to } });
  return moved.count === 1;
}

const AUDITED = { title: true, _count: { select: { steps: true } } } as const;

const auditMeta = (plan: { title: string; _count: { steps: number } }) => ({ title: plan.title, operations: plan._count.steps });

/** The author (or an owner or admin) sends a draft for review. */
export async function submitPlan(actor: Actor, planId: string, context: RequestContext = {}): Promise<void> {
  const plan = await planFor("submit", actor, planId, AUDITED);
  if (!(await transition(planId, "submit", { submittedAt: new Date() }))) throw new PlanStateError("Only a draft can be sent for review; this plan has moved on.");
  await auditByActor(actor, { action: "plan.submitted", target: planId, ip: context.ip, metadata: auditMeta(plan) });
  await announcePlanMove("submitted", planId, actor);
}

/** An owner or admin approves a submitted plan: its content as it is now. */
export async function approvePlan(actor: Actor, planId: string, context: RequestContext = {}): Promise<void> {
  // Who may, the author's own plan, a reviewer the author brought in, the reviewer's account (what
  // they see is read with their own credential): lib/plans/lifecycle.ts, as the page shows it.
  const plan = await planFor("approve", actor, planId, AUDITED);
  const approved = await prisma.$transaction(async (tx) => {
    const digest = await planDigest(planId, tx);
    return transition(planId, "approve", { approvedById: actor.userId, approvedByEmail: actor.email, approvedAt: new Date(), approvedDigest: digest }, tx);
  });
  if (!approved) throw new PlanStateError("Only a plan sent for review can be approved; this one is not (any more).");
  await auditByActor(actor, { action: "plan.approved", target: planId, ip: context.ip, metadata: auditMeta(plan) });
  await announcePlanMove("approved", planId, actor);
}

/** An owner or admin rejects a submitted or approved plan, saying why. */
export async function rejectPlan(actor: Actor, planId: string, reason: string, context: RequestContext = {}): Promise<void> {
  const plan = await planFor("reject", actor, planId, AUDITED);
  const done = await transition(planId, "reject", {
    rejectedById: actor.userId,
    rejectedAt: new Date(),
    rejectReason: reason,
    approvedById: null,
    approvedByEmail: null,
    approvedAt: null,
    approvedDigest: null,
  });
  if (!done) throw new PlanStateError("Only a plan waiting for review or approved can be rejected.");
  await auditByActor(actor, { action: "plan.rejected", target: planId, ip: context.ip, metadata: { ...auditMeta(plan), reason } });
  await announcePlanMove("rejected", planId, actor);
}

/**
 * Cancels a plan that has not started (its author, an owner or an admin), or stops one being applied
 * (owners and admins): at once when no applier holds it (it was released, or its applier died),
 * else before its applier's next step. Either needs a recent password, as approving does.
 */
export async function cancelPlan(actor: Actor, planId: string, context: RequestContext = {}): Promise<"cancelled" | "stopping"> {
  const plan = await planOfTeam(actor, planId, { ...FACT_COLUMNS, ...AUDITED });
  const { who, facts } = await planFacts(actor, plan);
  // Not started: cancelled. Being applied: stopped (lifecycle.ts "stop": who may differs).
  const move = plan.status === PlanStatus.applying ? "stop" : "cancel";
  authorise(move, actor, who, facts);
  if (move === "cancel") {
    if (!(await transition(planId, "cancel", {}))) throw new PlanStateError("This plan is not waiting or being applied: there is nothing to cancel.");
    await auditByActor(actor, { action: "plan.cancelled", target: planId, ip: context.ip, metadata: auditMeta(plan) });
    await announcePlanMove("cancelled", planId, actor);
    return "cancelled";
  }
  if (await stopUnheld(planId)) {
    await auditByActor(actor, { action: "plan.cancelled", target: planId, ip: context.ip, metadata: { ...auditMeta(plan), whileApplying: true } });
    return "cancelled";
  }
  const asked = await prisma.changePlan.updateMany({
    where: { id: planId, status: PlanStatus.applying, cancelRequestedAt: null },
    data: { cancelRequestedAt: new Date() },
  });
  if (asked.count !== 1) throw new PlanStateError("This plan is not waiting or being applied: there is nothing to cancel.");
  await auditByActor(actor, { action: "plan.cancelled", target: planId, ip: context.ip, metadata: { ...auditMeta(plan), whileApplying: true } });
  return "stopping";
}

/**
 * An applying plan no applier holds (released, or its lease ran out) is cancelled now: nobody would
 * see the request to stop until the next run. In one transaction that claims it as an applier would,
 * so a run taking it up meanwhile either comes first (and sees the request) or finds it cancelled.
 * A step left "running" by a dead applier may or may not have reached the EMS: it says so.
 */
async function stopUnheld(planId: string): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const stopped = await tx.$executeRaw`
      UPDATE "ChangePlan" SET "status" = 'cancelled', "stopReason" = 'Cancelled while no server was applying it.', "leaseId" = NULL, "leaseUntil" = NULL,
             "cancelRequestedAt" = now(), "updatedAt" = now()
       WHERE "id" = ${planId} AND "status" = 'applying' AND ("leaseUntil" IS NULL OR "leaseUntil" < now())`;
    if (stopped !== 1) return false;
    await tx.changePlanStep.updateMany({ where: { planId, state: "pending" }, data: { state: "skipped", message: "Not applied: the plan was cancelled." } });
    await tx.changePlanStep.updateMany({
      where: { planId, state: "running" },
      data: {
        state: "failed",
        message: "The plan was cancelled while this change was being sent: it may or may not have reached the EMS. Check the record.",
        finishedAt: new Date(),
      },
    });
    return true;
  });
}

/** Owners set whether plans need a second person's approval (null: the default). */
export async function setPlanReview(actor: Actor, required: boolean | null, context: RequestContext = {}): Promise<void> {
  const role = await currentRole(prisma, actor);
  if (!hasPermission(role, "setPlanReview")) throw new ForbiddenError("Only owners can change how plans are reviewed.");
  assertRecentPassword(actor);
  await prisma.team.update({ where: { id: actor.teamId }, data: { planReview: required } });
  await auditByActor(actor, { action: "plan.review_setting_changed", ip: context.ip, metadata: { required } });
}

/** The team's review setting as Team shows it: what owners chose (null: the default) and what holds now. */
export async function planReviewSetting(actor: Pick<Actor, "teamId">): Promise<{ setting: boolean | null; effective: boolean }> {
  const team = await prisma.team.findUnique({ where: { id: actor.teamId }, select: { planReview: true } });
  return { setting: team?.planReview ?? null, effective: await reviewRequired(actor.teamId) };
}
