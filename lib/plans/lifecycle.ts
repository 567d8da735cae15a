import { hasPermission, type Permission, type TeamRole } from "@/lib/access/roles";
import { PlanStatus } from "@/lib/generated/prisma/enums";

/**
 * A change plan's life, in one place (issue 36 §1): its states, the moves between them, who may make
 * each and what re-authentication it needs, and `permissionsFor`, the one answer to "may this person
 * make this move on this plan now?". The plan page's buttons are `permissionsFor(...)[move].allowed`;
 * the server's functions (review.ts, apply.ts, draft.ts) refuse with the same decision's message
 * (plan-access.ts `authorise`): what the screen offers is what the server allows.
 *
 * Pure: no database. The facts it decides on are read by plan-access.ts `planFacts`.
 */

export { PlanStatus };
export const PLAN_STATUSES = Object.values(PlanStatus);

/**
 * What a person can do to a plan. `stop` is cancelling a plan being applied; `applyUndo` is applying
 * an undo of a plan applied within FAST_UNDO_HOURS without a second approval (issue 37 §4).
 */
export type PlanMove = "submit" | "approve" | "reject" | "apply" | "applyUndo" | "cancel" | "stop" | "replan" | "undo";

export interface PlanTransition {
  /** The states the move starts from: also the `WHERE status IN (...)` of its conditional UPDATE. */
  from: readonly PlanStatus[];
  /** Where it leaves the plan; null for a move that drafts a new plan and leaves this one as it is. */
  to: PlanStatus | null;
  /** Who may: holders of `permission` (null: every member of the team), and the plan's author when `author`. */
  who: { permission: Permission | null; author: boolean };
  /** "password": a recent password (lib/access/recent-auth.ts), as the action's `recentAuth` asks. */
  reauth: "none" | "password";
}

const { draft, submitted, approved, rejected, applying, applied, failed, conflict, cancelled } = PlanStatus;

/**
 * The transition table. Apply starts from an approved plan nobody started yet, or resumes a failed
 * one (its failed steps are tried again, each reading its record first). A conflict is not applied
 * again: the conflicting step's record moved since the plan was made, so the same step would stop
 * again; "Plan the rest again" (replan) drafts what is left against the record as it is now, for a
 * fresh review.
 *
 * applyUndo: an undo the portal drafted (lib/plans/undo.ts; an edited one is a new plan that undoes
 * nothing) of a plan applied within the last FAST_UNDO_HOURS restores a state the team had a day
 * ago at most, so in an incident any owner or admin applies it at once, with a recent password,
 * without waiting for a second person (audited as such, and every owner is told: lib/plans/announce.ts).
 * An undo of an older plan is reviewed like any plan.
 */
export const PLAN_TRANSITIONS = {
  submit: { from: [draft], to: submitted, who: { permission: "approvePlans", author: true }, reauth: "none" },
  approve: { from: [submitted], to: approved, who: { permission: "approvePlans", author: false }, reauth: "password" },
  reject: { from: [submitted, approved], to: rejected, who: { permission: "approvePlans", author: false }, reauth: "password" },
  apply: { from: [approved, failed], to: applying, who: { permission: "applyPlans", author: false }, reauth: "password" },
  applyUndo: { from: [draft, submitted], to: applying, who: { permission: "applyPlans", author: false }, reauth: "password" },
  cancel: { from: [draft, submitted, approved, rejected], to: cancelled, who: { permission: "approvePlans", author: true }, reauth: "password" },
  stop: { from: [applying], to: cancelled, who: { permission: "applyPlans", author: false }, reauth: "password" },
  replan: { from: [conflict, failed], to: null, who: { permission: null, author: true }, reauth: "none" },
  undo: { from: [applied, failed, conflict, cancelled], to: null, who: { permission: null, author: true }, reauth: "none" },
} as const satisfies Record<PlanMove, PlanTransition>;

/** How recent an applied plan is for its undo to be applied without review (applyUndo). */
export const FAST_UNDO_HOURS = 24;

/** Not applied yet (nothing sent): the plan page shows the impact, and reads the setup for it. */
export const BEFORE_APPLY: readonly PlanStatus[] = [draft, submitted, approved];
/** Drafted and not approved yet: what the per-person and per-team caps count (lib/plans/caps.ts). */
export const AWAITING_APPROVAL: readonly PlanStatus[] = [draft, submitted];

export const isBeforeApply = (status: PlanStatus) => BEFORE_APPLY.includes(status);
export const isAwaitingApproval = (status: PlanStatus) => AWAITING_APPROVAL.includes(status);

/**
 * What a plan reads as on its page and in the list: its status, except that a plan whose undo has
 * been applied reads "Undone" (issue 37 §4), not the "Applied" it once was.
 */
export type PlanShownStatus = PlanStatus | "undone";
export function shownStatus(status: PlanStatus, undoApplied: boolean): PlanShownStatus {
  return undoApplied ? "undone" : status;
}

/**
 * Where a plan is as its page tells it: under review (nothing started: the impact is shown), under
 * way (an applier started it: live progress), or ended (each step's outcome).
 */
export type PlanPhase = "review" | "under-way" | "ended";
export function planPhase(status: PlanStatus, applierStarted: boolean): PlanPhase {
  if (status === applying || (status === approved && applierStarted)) return "under-way";
  return isBeforeApply(status) ? "review" : "ended";
}

/** The person acting, as far as plans care: who they are and their role in the plan's team now. */
export interface PlanActor {
  userId: string;
  role: TeamRole;
}

/** What the decisions read about a plan (plan-access.ts `planFacts` reads them from the database). */
export interface PlanFacts {
  status: PlanStatus;
  authorId: string | null;
  /** Approved and an applier started it (it waits for a run): a second Apply changes nothing. */
  started: boolean;
  /** Someone asked an applying plan to stop. */
  cancelRequested: boolean;
  /** Steps the EMS took: what undo would put back. */
  appliedSteps: number;
  /** A plan that undoes this one exists (not cancelled). */
  undone: boolean;
  /**
   * This plan is the portal's undo of a plan applied (or stopped part-way) within FAST_UNDO_HOURS,
   * so it may be applied without review (applyUndo).
   */
  undoesRecentPlan: boolean;
  /** The team's plans need a second person's approval (lib/plans/review.ts `reviewRequired`). */
  reviewRequired: boolean;
  /** The actor became an owner or admin through the author after the plan was sent for review. */
  introducedByAuthor: boolean;
  /** Whose account the actor's own saved credential reads: the plan's, another, or none saved. */
  credential: "plan-account" | "other-account" | "none";
  /** A fix the team's check policy drafted (lib/plans/policy-fixes.ts): no author, a check. */
  drafted: boolean;
}

/**
 * Why a move is refused: `who` (not this person: 403), `account` (their credential is for another
 * account, or missing: 403), `state` (the plan is not where the move starts: 409-like). The message
 * is the one the page shows and the server answers with.
 */
export type PlanDecision = { allowed: true } | { allowed: false; because: "who" | "account" | "no-credential" | "state"; message: string };

export const INTRODUCED_BY_AUTHOR_MESSAGE =
  "You became an owner or admin through this plan's author after it was sent for review: another owner or admin, there before, approves it.";
export const OTHER_ACCOUNT_MESSAGE =
  "Your API credentials are for another EMS account than this plan's: what you would review is that account's records, not this plan's. Save credentials for its account to review it.";
export const OWN_PLAN_MESSAGE = "You drafted this plan: another owner or admin approves it.";
const NO_CREDENTIAL_MESSAGE = "You have not saved any API credentials yet. Add them in Settings.";

const refuse = (because: Exclude<PlanDecision, { allowed: true }>["because"], message: string): PlanDecision => ({ allowed: false, because, message });
const ALLOWED: PlanDecision = { allowed: true };

/** Who may make `move` by role and authorship alone. */
export function mayByRole(move: PlanMove, actor: PlanActor, authorId: string | null): boolean {
  const { who } = PLAN_TRANSITIONS[move];
  if (who.permission === null || hasPermission(actor.role, who.permission)) return true;
  return who.author && authorId === actor.userId;
}

const WHO_MESSAGES: Record<PlanMove, string> = {
  submit: "Only its author, an owner or an admin can send this plan for review.",
  approve: "Only owners and admins can approve a plan.",
  reject: "Only owners and admins can reject a plan.",
  apply: "Only owners and admins can apply a plan.",
  applyUndo: "Only owners and admins can apply an undo without review.",
  cancel: "Only its author, an owner or an admin can cancel this plan.",
  stop: "Only owners and admins can stop a plan being applied.",
  replan: "Only members of the team can plan it again.",
  undo: "Only members of the team can undo it.",
};

function stateMessage(move: PlanMove, plan: PlanFacts): string {
  switch (move) {
    case "submit":
      return "Only a draft can be sent for review; this plan has moved on.";
    case "approve":
      return "Only a plan sent for review can be approved; this one is not (any more).";
    case "reject":
      return "Only a plan waiting for review or approved can be rejected.";
    case "apply":
      if (plan.status === applied) return "This plan is already applied.";
      if (plan.status === conflict) return "A record changed since this plan was made: plan the rest again to review what is left against the records as they are now.";
      if (plan.status === applying || plan.started) return "This plan is being applied already, or it is no longer approved.";
      return "Only an approved plan can be applied.";
    case "applyUndo":
      if (!plan.undoesRecentPlan)
        return `Only an undo of a plan applied in the last ${FAST_UNDO_HOURS} hours is applied without review; this one goes through the normal review.`;
      return "This undo is approved, being applied or closed already: it is not applied without review again.";
    case "cancel":
    case "stop":
      return "This plan is not waiting or being applied: there is nothing to cancel.";
    case "replan":
      return "Only a plan that stopped (a conflict or a failed step) is planned again.";
    case "undo":
      return plan.undone ? "This plan is undone already (or its undo waits for review)." : "Nothing of this plan was applied: there is nothing to undo.";
  }
}

const inState = (move: PlanMove, status: PlanStatus) => (PLAN_TRANSITIONS[move].from as readonly PlanStatus[]).includes(status);

/** Whether `actor` may make `move` on the plan now, and if not, why (checked in the order the server always checked). */
export function decide(move: PlanMove, actor: PlanActor, plan: PlanFacts): PlanDecision {
  if (!mayByRole(move, actor, plan.authorId)) return refuse("who", WHO_MESSAGES[move]);
  const author = plan.authorId === actor.userId;
  if (move === "approve" && plan.reviewRequired && author) return refuse("who", OWN_PLAN_MESSAGE);
  if (move === "approve" && plan.reviewRequired && plan.introducedByAuthor) return refuse("who", INTRODUCED_BY_AUTHOR_MESSAGE);
  // What a reviewer sees (names, the impact) and what an applier sends go through their own
  // credential: one of another account describes and writes that account's records.
  if (move === "approve" && plan.credential !== "plan-account") return refuse("account", OTHER_ACCOUNT_MESSAGE);
  if (move === "apply" || move === "applyUndo" || move === "replan" || move === "undo") {
    if (plan.credential === "none") return refuse("no-credential", NO_CREDENTIAL_MESSAGE);
    if (plan.credential === "other-account") return refuse("account", "Your API credentials are for another EMS account than this plan's.");
  }
  if (!inState(move, plan.status)) return refuse("state", stateMessage(move, plan));
  if (move === "apply" && plan.status === approved && plan.started) return refuse("state", stateMessage(move, plan));
  if (move === "applyUndo" && !plan.undoesRecentPlan) return refuse("state", stateMessage(move, plan));
  if (move === "stop" && plan.cancelRequested) return refuse("state", "This plan is stopping already: it stops before its next step.");
  if (move === "undo" && (plan.appliedSteps === 0 || plan.undone)) return refuse("state", stateMessage(move, plan));
  return ALLOWED;
}

/** Every move's decision for this person and plan: the page's buttons, and what the server allows. */
/**
 * A reviewer's one step on a drafted fix (issue 37 §2): "approve" and then "apply", two moves of the
 * table above, each decided as it is alone (apply as on the plan once approved by this person, not
 * started yet). Only a plan the portal drafted: a person's plan keeps its two steps, so its approver
 * looks at it again before it is sent. Needs a recent password, as both moves do.
 */
export function decideApproveAndApply(actor: PlanActor, plan: PlanFacts): PlanDecision {
  if (!plan.drafted) return refuse("state", "Only a fix EMS Portal drafted is approved and applied in one step.");
  const approve = decide("approve", actor, plan);
  if (!approve.allowed) return approve;
  return decide("apply", actor, { ...plan, status: approved, started: false });
}

export function permissionsFor(actor: PlanActor, plan: PlanFacts): Record<PlanMove, PlanDecision> {
  const moves = Object.keys(PLAN_TRANSITIONS) as PlanMove[];
  return Object.fromEntries(moves.map((move) => [move, decide(move, actor, plan)])) as Record<PlanMove, PlanDecision>;
}
