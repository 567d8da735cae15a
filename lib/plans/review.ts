import "server-only";
import { createHash } from "node:crypto";
import type { Actor } from "@/lib/access/actor";
import { currentRole, type RequestContext } from "@/lib/access/guards";
import { assertRecentPassword } from "@/lib/access/recent-auth";
import { canManageTeam } from "@/lib/access/roles";
import { auditByActor } from "@/lib/audit/log";
import { prisma, type TransactionClient } from "@/lib/db/prisma";
import { ForbiddenError, NotFoundError, SafeError } from "@/lib/errors";
import { accountKey } from "@/lib/ems-access/account-key";
import { CredentialUnreadableError, loadOwnCredential } from "@/lib/ems-access/credential";
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

export const OTHER_ACCOUNT_MESSAGE =
  "Your API credentials are for another EMS account than this plan's: what you would review is that account's records, not this plan's. Save credentials for its account to review it.";

/** Whether the person's own saved credential reads the plan's EMS account. */
export async function readsAccount(actor: Pick<Actor, "userId">, planAccountKey: string): Promise<boolean> {
  const credential = await loadOwnCredential(actor).catch((error: unknown) => {
    if (error instanceof CredentialUnreadableError) return null;
    throw error;
  });
  return credential !== null && accountKey(credential.baseUrl, credential.consumerKey) === planAccountKey;
}

export const INTRODUCED_BY_AUTHOR_MESSAGE =
  "You became an owner or admin through this plan's author after it was sent for review: another owner or admin, there before, approves it.";

/**
 * Whether `approverId` became an owner or admin of the team through `authorId` after `since` (the
 * plan's submission): joined with an invitation the author made, or given the role by the author.
 * A second approver the author brought in (a second address of their own) is no second pair of eyes.
 */
export async function madeManagerBy(authorId: string, approverId: string, teamId: string, since: Date): Promise<boolean> {
  const [invited, promoted] = await Promise.all([
    prisma.invitation.count({ where: { teamId, createdById: authorId, usedById: approverId, usedAt: { gt: since } } }),
    prisma.auditLog.count({ where: { teamId, actorId: authorId, action: "team.role_changed", target: `user:${approverId}`, createdAt: { gt: since } } }),
  ]);
  return invited + promoted > 0;
}

async function planOfTeam(actor: Actor, planId: string, tx: TransactionClient = prisma) {
  const plan = await tx.changePlan.findFirst({
    where: { id: planId, teamId: actor.teamId },
    select: {
      id: true,
      title: true,
      status: true,
      authorId: true,
      accountKey: true,
      submittedAt: true,
      approvedDigest: true,
      _count: { select: { steps: true } },
    },
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
  if (await reviewRequired(actor.teamId)) {
    if (plan.authorId === actor.userId) throw new ForbiddenError("You drafted this plan: another owner or admin has to approve it.");
    if (plan.authorId && plan.submittedAt && (await madeManagerBy(plan.authorId, actor.userId, actor.teamId, plan.submittedAt))) {
      throw new ForbiddenError(INTRODUCED_BY_AUTHOR_MESSAGE);
    }
  }
  // What a reviewer sees (group names, the impact) is read with their own credential: of another
  // account, it would describe that account's records, not the ones this plan changes.
  if (!(await readsAccount(actor, plan.accountKey))) throw new ForbiddenError(OTHER_ACCOUNT_MESSAGE);
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
  assertRecentPassword(actor);
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
 * Cancels a plan that has not started (its author, an owner or an admin), or stops one being applied
 * (owners and admins): at once when no applier holds it (it was released, or its applier died),
 * else before its applier's next step. Either needs a recent password, as approving does.
 */
export async function cancelPlan(actor: Actor, planId: string, context: RequestContext = {}): Promise<"cancelled" | "stopping"> {
  const plan = await planOfTeam(actor, planId);
  const role = await currentRole(prisma, actor);
  const manager = canManageTeam(role);
  if (plan.authorId !== actor.userId && !manager) throw new ForbiddenError("Only its author, an owner or an admin can cancel this plan.");
  assertRecentPassword(actor);
  if (await transition(planId, ["draft", "submitted", "approved", "rejected"], { status: "cancelled" })) {
    await auditByActor(actor, { action: "plan.cancelled", target: planId, ip: context.ip, metadata: auditMeta(plan) });
    return "cancelled";
  }
  if (!manager) throw new ForbiddenError("Only owners and admins can stop a plan being applied.");
  if (await stopUnheld(planId)) {
    await auditByActor(actor, { action: "plan.cancelled", target: planId, ip: context.ip, metadata: { ...auditMeta(plan), whileApplying: true } });
    return "cancelled";
  }
  const asked = await prisma.changePlan.updateMany({ where: { id: planId, status: "applying", cancelRequestedAt: null }, data: { cancelRequestedAt: new Date() } });
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
