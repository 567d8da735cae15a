import "server-only";
import { createHash } from "node:crypto";
import type { Actor } from "@/lib/access/actor";
import { currentRole, type RequestContext } from "@/lib/access/guards";
import { assertRecentPassword } from "@/lib/access/recent-auth";
import { canManageTeam } from "@/lib/access/roles";
import { auditByActor } from "@/lib/audit/log";
import { prisma, type TransactionClient } from "@/lib/db/prisma";
import { ForbiddenError, NotFoundError, SafeError } from "@/lib/errors";
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

export const PLAN_STATUSES = ["draft", "submitted", "approved", "rejected", "applying", "applied", "failed", "conflict", "cancelled"] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

export class PlanStateError extends SafeError {
  constructor(message: string) {
    super(message, "plan_state");
  }
}

/** Whether the team's plans need a second person's approval: its setting, else two or more owners and admins. */
export async function reviewRequired(teamId: string, tx: TransactionClient = prisma): Promise<boolean> {
  const team = await tx.team.findUnique({ where: { id: teamId }, select: { planReview: true } });
  if (team?.planReview != null) return team.planReview;
  const managers = await tx.membership.count({ where: { teamId, role: { in: ["OWNER", "ADMIN"] } } });
  return managers >= 2;
}

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

async function planOfTeam(actor: Actor, planId: string, tx: TransactionClient = prisma) {
  const plan = await tx.changePlan.findFirst({
    where: { id: planId, teamId: actor.teamId },
    select: { id: true, title: true, status: true, authorId: true, approvedDigest: true, _count: { select: { steps: true } } },
  });
  if (!plan) throw new NotFoundError("That plan no longer exists, or it is not in your team.");
  return plan;
}

async function transition(
  planId: string,
  from: readonly PlanStatus[],
  data: Parameters<typeof prisma.changePlan.updateMany>[0]["data"],
  tx: TransactionClient = prisma,
): Promise<boolean> {
  const moved = await tx.changePlan.updateMany({ where: { id: planId, status: { in: [...from] } }, data });
  return moved.count === 1;
}

const auditMeta = (plan: { title: string; _count: { steps: number } }) => ({ title: plan.title, operations: plan._count.steps });

/** The author (or an owner or admin) sends a draft for review. */
export async function submitPlan(actor: Actor, planId: string, context: RequestContext = {}): Promise<void> {
  const plan = await planOfTeam(actor, planId);
  const role = await currentRole(prisma, actor);
  if (plan.authorId !== actor.userId && !canManageTeam(role)) throw new ForbiddenError("Only its author, an owner or an admin can send this plan for review.");
  if (!(await transition(planId, ["draft"], { status: "submitted", submittedAt: new Date() })))
    throw new PlanStateError("Only a draft can be sent for review; this plan has moved on.");
  await auditByActor(actor, { action: "plan.submitted", target: planId, ip: context.ip, metadata: auditMeta(plan) });
}

/** An owner or admin approves a submitted plan: its content as it is now. */
export async function approvePlan(actor: Actor, planId: string, context: RequestContext = {}): Promise<void> {
  const plan = await planOfTeam(actor, planId);
  const role = await currentRole(prisma, actor);
  if (!canManageTeam(role)) throw new ForbiddenError("Only owners and admins can approve a plan.");
  assertRecentPassword(actor);
  if (plan.authorId === actor.userId && (await reviewRequired(actor.teamId))) {
    throw new ForbiddenError("You drafted this plan: another owner or admin has to approve it.");
  }
  const approved = await prisma.$transaction(async (tx) => {
    const digest = await planDigest(planId, tx);
    return transition(
      planId,
      ["submitted"],
      { status: "approved", approvedById: actor.userId, approvedByEmail: actor.email, approvedAt: new Date(), approvedDigest: digest },
      tx,
    );
  });
  if (!approved) throw new PlanStateError("Only a plan sent for review can be approved; this one is not (any more).");
  await auditByActor(actor, { action: "plan.approved", target: planId, ip: context.ip, metadata: auditMeta(plan) });
}

/** An owner or admin rejects a submitted or approved plan, saying why. */
export async function rejectPlan(actor: Actor, planId: string, reason: string, context: RequestContext = {}): Promise<void> {
  const plan = await planOfTeam(actor, planId);
  const role = await currentRole(prisma, actor);
  if (!canManageTeam(role)) throw new ForbiddenError("Only owners and admins can reject a plan.");
  const done = await transition(planId, ["submitted", "approved"], {
    status: "rejected",
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
}

/**
 * Cancels a plan that has not started (its author, an owner or an admin), or asks one being applied
 * to stop before its next step (owners and admins).
 */
export async function cancelPlan(actor: Actor, planId: string, context: RequestContext = {}): Promise<"cancelled" | "stopping"> {
  const plan = await planOfTeam(actor, planId);
  const role = await currentRole(prisma, actor);
  const manager = canManageTeam(role);
  if (plan.authorId !== actor.userId && !manager) throw new ForbiddenError("Only its author, an owner or an admin can cancel this plan.");
  if (await transition(planId, ["draft", "submitted", "approved", "rejected"], { status: "cancelled" })) {
    await auditByActor(actor, { action: "plan.cancelled", target: planId, ip: context.ip, metadata: auditMeta(plan) });
    return "cancelled";
  }
  if (!manager) throw new ForbiddenError("Only owners and admins can stop a plan being applied.");
  const asked = await prisma.changePlan.updateMany({ where: { id: planId, status: "applying", cancelRequestedAt: null }, data: { cancelRequestedAt: new Date() } });
  if (asked.count !== 1) throw new PlanStateError("This plan is not waiting or being applied: there is nothing to cancel.");
  await auditByActor(actor, { action: "plan.cancelled", target: planId, ip: context.ip, metadata: { ...auditMeta(plan), whileApplying: true } });
  return "stopping";
}

/** Owners set whether plans need a second person's approval (null: the default). */
export async function setPlanReview(actor: Actor, required: boolean | null, context: RequestContext = {}): Promise<void> {
  const role = await currentRole(prisma, actor);
  if (role !== "OWNER") throw new ForbiddenError("Only owners can change how plans are reviewed.");
  assertRecentPassword(actor);
  await prisma.team.update({ where: { id: actor.teamId }, data: { planReview: required } });
  await auditByActor(actor, { action: "plan.review_setting_changed", ip: context.ip, metadata: { required } });
}

/** The team's review setting as Team shows it: what owners chose (null: the default) and what holds now. */
export async function planReviewSetting(actor: Pick<Actor, "teamId">): Promise<{ setting: boolean | null; effective: boolean }> {
  const team = await prisma.team.findUnique({ where: { id: actor.teamId }, select: { planReview: true } });
  return { setting: team?.planReview ?? null, effective: await reviewRequired(actor.teamId) };
}
