import "server-only";
import { PERMISSIONS } from "@/lib/access/roles";
import { prisma } from "@/lib/db/prisma";
import { addInboxItems, settleReviewItems } from "@/lib/inbox/feed";
import { PORTAL_ON_BEHALF, type InboxKind } from "@/lib/inbox/kinds";
import { log } from "@/lib/log";

/**
 * The one place where the plan lifecycle's moves become inbox items (issue 37 §4): review.ts,
 * apply.ts and run.ts call `announcePlanMove` after a move has happened (its conditional UPDATE won),
 * and this says who hears of it:
 * - submitted: everyone who may approve it (owners and admins), not its author; a plan without an
 *   author is a fix the portal drafted "on behalf of the team" (issue 37 §2), its own kind;
 * - approved, rejected: its author; its review items are then done for every reviewer (and so when
 *   it is cancelled, which tells nobody);
 * - applied, stopped on a conflict, failed: its author (the applier made the move);
 * - an undo applied without review: every owner.
 * Never the person who made the move. Each item is written once per person and occasion (the
 * occasion is the move's own time or outcome, read from the row the move wrote), so two instances
 * announcing one move write one item. A failure to announce is logged, never the move's failure.
 *
 * The portal's own drafting (issue 37 §2) needs nothing more when it sends its plan through
 * `submitPlan`; code that moves a plan without the functions of review.ts (the portal submitting
 * its draft as nobody, superseding its older draft) calls `announcePlanMove("submitted" |
 * "cancelled", planId, { userId: null, email: null })` after its UPDATE, so reviewers hear of the new
 * draft and the older one's review items are settled.
 */

export type AnnouncedMove = "submitted" | "approved" | "rejected" | "cancelled" | "applied" | "failed" | "conflict" | "undo_without_review";

export interface MoveBy {
  userId: string | null;
  email: string | null;
}

const KIND: Record<Exclude<AnnouncedMove, "submitted" | "cancelled">, InboxKind> = {
  approved: "plan_approved",
  rejected: "plan_rejected",
  applied: "plan_applied",
  failed: "plan_failed",
  conflict: "plan_conflict",
  undo_without_review: "undo_without_review",
};

export async function announcePlanMove(move: AnnouncedMove, planId: string, by: MoveBy): Promise<number> {
  try {
    return await announce(move, planId, by);
  } catch (error) {
    log.error({ event: "inbox.announce_failed", move, planId, err: error }, "a plan move could not be put in the inbox");
    return 0;
  }
}

async function announce(move: AnnouncedMove, planId: string, by: MoveBy): Promise<number> {
  const plan = await prisma.changePlan.findUnique({
    where: { id: planId },
    select: {
      teamId: true,
      title: true,
      accountKey: true,
      authorId: true,
      submittedAt: true,
      approvedAt: true,
      rejectedAt: true,
      rejectReason: true,
      stopReason: true,
      updatedAt: true,
    },
  });
  if (!plan) return 0;
  const base = { teamId: plan.teamId, planId, planTitle: plan.title, accountKey: plan.accountKey, actorId: by.userId, actorLabel: by.email };
  switch (move) {
    case "submitted": {
      const reviewers = await membersWithRole(plan.teamId, [...PERMISSIONS.approvePlans]);
      const drafted = plan.authorId === null;
      return addInboxItems({
        ...base,
        kind: drafted ? "drafted_fix_to_review" : "plan_to_review",
        actorLabel: drafted ? PORTAL_ON_BEHALF : by.email,
        recipients: reviewers.filter((id) => id !== plan.authorId),
        occasion: (plan.submittedAt ?? plan.updatedAt).toISOString(),
      });
    }
    case "approved":
    case "rejected": {
      await settleReviewItems(planId);
      const at = move === "approved" ? plan.approvedAt : plan.rejectedAt;
      return addInboxItems({
        ...base,
        kind: KIND[move],
        detail: move === "rejected" ? plan.rejectReason : null,
        recipients: [plan.authorId],
        occasion: (at ?? plan.updatedAt).toISOString(),
      });
    }
    case "cancelled":
      await settleReviewItems(planId);
      return 0;
    case "applied":
    case "failed":
    case "conflict":
      return addInboxItems({
        ...base,
        kind: KIND[move],
        detail: move === "applied" ? null : plan.stopReason,
        recipients: [plan.authorId],
        occasion: plan.updatedAt.toISOString(),
      });
    case "undo_without_review":
      // Sent for review first and then applied without it: nobody needs to review it any more.
      await settleReviewItems(planId);
      return addInboxItems({
        ...base,
        kind: KIND[move],
        recipients: await membersWithRole(plan.teamId, ["OWNER"]),
        occasion: (plan.approvedAt ?? plan.updatedAt).toISOString(),
      });
  }
}

async function membersWithRole(teamId: string, roles: ("OWNER" | "ADMIN" | "MEMBER")[]): Promise<string[]> {
  const rows = await prisma.membership.findMany({ where: { teamId, role: { in: roles } }, select: { userId: true } });
  return rows.map((row) => row.userId);
}
