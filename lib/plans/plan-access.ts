import "server-only";
import type { Actor } from "@/lib/access/actor";
import { currentRole } from "@/lib/access/guards";
import { assertRecentPassword } from "@/lib/access/recent-auth";
import { hasPermission, PERMISSIONS } from "@/lib/access/roles";
import { prisma, type TransactionClient } from "@/lib/db/prisma";
import { accountKey } from "@/lib/ems-access/account-key";
import { CredentialUnreadableError, loadOwnCredential, NoCredentialError } from "@/lib/ems-access/credential";
import { ForbiddenError, NotFoundError, SafeError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { decide, FAST_UNDO_HOURS, PLAN_TRANSITIONS, PlanStatus, type PlanActor, type PlanFacts, type PlanMove } from "./lifecycle";

/**
 * The server's side of lib/plans/lifecycle.ts: the one lookup of a team's plan, the facts the
 * decisions read, and `authorise`, which refuses a move with the decision the plan page shows.
 */

export const PLAN_NOT_FOUND = "That plan no longer exists, or it is not in your team.";

/** A plan move refused because of where the plan is in its life (another move got there first). */
export class PlanStateError extends SafeError {
  constructor(message: string) {
    super(message, "plan_state");
  }
}

/** Why a plan cannot be applied as it stands: not approved, or changed since its approval. */
export class PlanNotApprovedError extends SafeError {
  constructor(message: string) {
    super(message, "plan_not_approved");
  }
}

/** The plan of the actor's team, with the columns asked for; another team's plan is "not found", as a missing one is. */
export async function planOfTeam<S extends Prisma.ChangePlanSelect>(
  actor: Pick<Actor, "teamId">,
  planId: string,
  select: S,
  tx: TransactionClient = prisma,
): Promise<Prisma.ChangePlanGetPayload<{ select: S }>> {
  const plan = await tx.changePlan.findFirst({ where: { id: planId, teamId: actor.teamId }, select });
  if (!plan) throw new NotFoundError(PLAN_NOT_FOUND);
  return plan as Prisma.ChangePlanGetPayload<{ select: S }>;
}

/** Whether the team's plans need a second person's approval: its setting, else two or more holders of `approvePlans`. */
export async function reviewRequired(teamId: string, tx: TransactionClient = prisma): Promise<boolean> {
  const team = await tx.team.findUnique({ where: { id: teamId }, select: { planReview: true } });
  if (team?.planReview != null) return team.planReview;
  const reviewers = await tx.membership.count({ where: { teamId, role: { in: [...PERMISSIONS.approvePlans] } } });
  return reviewers >= 2;
}

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

/**
 * The person's own saved credential, if it reads the plan's account: what approving, applying and
 * running a plan read and write with (one of another account would describe and change that
 * account's records). An unreadable one counts as none.
 */
export async function credentialForPlan(person: Pick<Actor, "userId">, planAccountKey: string) {
  const credential = await loadOwnCredential(person).catch((error: unknown) => {
    if (error instanceof CredentialUnreadableError) return null;
    throw error;
  });
  const account: PlanFacts["credential"] = !credential
    ? "none"
    : accountKey(credential.baseUrl, credential.consumerKey) === planAccountKey
      ? "plan-account"
      : "other-account";
  return { credential: account === "plan-account" ? credential : null, account };
}

/** Which account the person's own saved credential reads, against the plan's. */
export async function credentialAccount(person: Pick<Actor, "userId">, planAccountKey: string): Promise<PlanFacts["credential"]> {
  return (await credentialForPlan(person, planAccountKey)).account;
}

/** Whether this person reviews the team's plans (the role as the database has it now): the list's "Needs your review". */
export async function reviewsPlans(actor: Pick<Actor, "userId" | "teamId">): Promise<boolean> {
  return hasPermission(await currentRole(prisma, actor), PLAN_TRANSITIONS.approve.who.permission);
}

/** Whether the person's own saved credential reads the plan's EMS account. */
export async function readsAccount(actor: Pick<Actor, "userId">, planAccountKey: string): Promise<boolean> {
  return (await credentialAccount(actor, planAccountKey)) === "plan-account";
}

/** The columns of a plan its facts are read from. */
export const FACT_COLUMNS = {
  id: true,
  status: true,
  authorId: true,
  accountKey: true,
  submittedAt: true,
  appliedById: true,
  cancelRequestedAt: true,
  revertsPlanId: true,
  fixCheck: true,
} as const satisfies Prisma.ChangePlanSelect;
type FactRow = Prisma.ChangePlanGetPayload<{ select: typeof FACT_COLUMNS }>;

/**
 * Whether the plan an undo reverts was applied (or stopped part-way, something sent) within the last
 * FAST_UNDO_HOURS, by the database's clock: its undo may then be applied without review.
 */
async function revertsRecentPlan(teamId: string, revertedId: string): Promise<boolean> {
  const rows = await prisma.$queryRaw<{ recent: boolean }[]>`
    SELECT COALESCE("appliedAt", "updatedAt") > (now() AT TIME ZONE 'UTC') - make_interval(hours => ${FAST_UNDO_HOURS}) AS "recent"
      FROM "ChangePlan"
     WHERE "id" = ${revertedId} AND "teamId" = ${teamId} AND "appliedById" IS NOT NULL
       AND "status" IN ('applied', 'failed', 'conflict', 'cancelled')`;
  return rows[0]?.recent === true;
}

/**
 * What lifecycle.ts decides on, read now: the actor's role as the database has it (never the
 * session's, which may be seconds old), the team's review rule, the actor's credential, the steps
 * applied and whether an undo exists.
 */
export async function planFacts(actor: Actor, plan: FactRow): Promise<{ who: PlanActor; facts: PlanFacts }> {
  const [role, review, credential, appliedSteps, undoes, undoesRecentPlan] = await Promise.all([
    currentRole(prisma, actor),
    reviewRequired(actor.teamId),
    credentialAccount(actor, plan.accountKey),
    prisma.changePlanStep.count({ where: { planId: plan.id, state: "applied" } }),
    prisma.changePlan.count({ where: { revertsPlanId: plan.id, teamId: actor.teamId, status: { not: PlanStatus.cancelled } } }),
    plan.revertsPlanId ? revertsRecentPlan(actor.teamId, plan.revertsPlanId) : false,
  ]);
  const introducedByAuthor =
    review &&
    plan.status === PlanStatus.submitted &&
    plan.authorId !== null &&
    plan.authorId !== actor.userId &&
    plan.submittedAt !== null &&
    hasPermission(role, "approvePlans")
      ? await madeManagerBy(plan.authorId, actor.userId, actor.teamId, plan.submittedAt)
      : false;
  return {
    who: { userId: actor.userId, role },
    facts: {
      status: plan.status,
      authorId: plan.authorId,
      started: plan.status === PlanStatus.approved && plan.appliedById !== null,
      cancelRequested: plan.cancelRequestedAt !== null,
      appliedSteps,
      undone: undoes > 0,
      undoesRecentPlan,
      reviewRequired: review,
      introducedByAuthor,
      credential,
      drafted: plan.authorId === null && plan.fixCheck !== null,
    },
  };
}

/**
 * Refuses `move` unless lifecycle.ts allows it: who may first (403), then the re-authentication the
 * move needs, then the rest of the decision (the account: 403; the plan's state: PlanStateError).
 * The conditional UPDATE that follows still starts from `PLAN_TRANSITIONS[move].from`: two people
 * acting at once cannot both win.
 */
export function authorise(move: PlanMove, actor: Actor, who: PlanActor, facts: PlanFacts): void {
  const decision = decide(move, who, facts);
  if (!decision.allowed && decision.because === "who") throw new ForbiddenError(decision.message);
  if (PLAN_TRANSITIONS[move].reauth === "password") assertRecentPassword(actor);
  if (decision.allowed) return;
  if (decision.because === "no-credential") throw new NoCredentialError();
  if (decision.because === "account") throw new ForbiddenError(decision.message);
  throw move === "apply" ? new PlanNotApprovedError(decision.message) : new PlanStateError(decision.message);
}

/** The plan of the actor's team, `move` authorised on it: the row (FACT_COLUMNS and `select`). */
export async function planFor<S extends Prisma.ChangePlanSelect>(
  move: PlanMove,
  actor: Actor,
  planId: string,
  select: S,
): Promise<FactRow & Prisma.ChangePlanGetPayload<{ select: S }>> {
  const plan = await planOfTeam(actor, planId, { ...select, ...FACT_COLUMNS });
  const { who, facts } = await planFacts(actor, plan as FactRow);
  authorise(move, actor, who, facts);
  return plan as FactRow & Prisma.ChangePlanGetPayload<{ select: S }>;
}
