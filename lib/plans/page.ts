import "server-only";
import type { Actor } from "@/lib/access/actor";
import { canManageTeam } from "@/lib/access/roles";
import { prisma } from "@/lib/db/prisma";
import type { Prisma } from "@/lib/generated/prisma/client";
import { emsConfig } from "@/lib/ems";
import { NotFoundError } from "@/lib/errors";
import { loadHealthReport } from "@/lib/health/report";
import { labelOf } from "@/lib/setup/setup-data";
import { planCost, type PlanCost } from "./cost";
import { describeOperation, type OperationDiff } from "./diff";
import { planImpact, type PlanImpact } from "./impact";
import type { PlanStatus } from "./review";
import { INTRODUCED_BY_AUTHOR_MESSAGE, madeManagerBy, OTHER_ACCOUNT_MESSAGE, readsAccount, reviewRequired } from "./review";
import { readSteps } from "./store";
import type { StepState } from "./steps";

/**
 * What the plan page shows (app/(portal)/plans/[id]): plain data only, never a header value (the
 * diff names headers; before-states and changes stay on the server). The impact is computed on the
 * account's setup as Health reads it, for a plan not applied yet.
 */

/** Operations shown per page of a large plan. */
export const OPERATIONS_PER_PAGE = 100;

export interface PlanStep {
  position: number;
  state: StepState;
  message: string | null;
  diff: OperationDiff;
}

export interface PlanGroupSection {
  groupId: number | null;
  groupName: string;
  /** The previous page ended in this group: its heading says "continued". */
  continued: boolean;
  steps: PlanStep[];
}

export interface PlanPageData {
  id: string;
  title: string;
  status: PlanStatus;
  stopReason: string | null;
  createdAt: Date;
  author: string | null;
  approvedBy: string | null;
  approvedAt: Date | null;
  rejectedBy: string | null;
  rejectReason: string | null;
  appliedBy: string | null;
  appliedAt: Date | null;
  cancelRequested: boolean;
  /**
   * Applying, but no applier holds it now: the one that had it stopped (a restart, a time limit) or
   * its instance died and its lease ran out. Any instance takes it up within about a minute.
   */
  awaitingApplier: boolean;
  revertsPlan: { id: string; title: string } | null;
  undoneBy: { id: string; title: string; status: string } | null;
  operationCount: number;
  counts: Record<StepState, number>;
  /** While it applies: the step being sent (or next to be), for the progress line to point at. */
  current: { position: number; page: number } | null;
  /** This page of operations, in order, each run of operations on one group under its heading. */
  sections: PlanGroupSection[];
  page: number;
  pageCount: number;
  impact: PlanImpact | null;
  /** Why the impact is not shown (the setup could not be read), when it is not. */
  impactUnavailable: string | null;
  cost: PlanCost;
  reviewRequired: boolean;
  /** What this person may do now. */
  can: { submit: boolean; approve: boolean; reject: boolean; apply: boolean; cancel: boolean; undo: boolean; replan: boolean };
  /** Where its author edits it while it is a draft (a plan of one webhook change). */
  editHref: string | null;
  /** Why this person may not approve, when the plan waits for approval. */
  approveBlockedBecause: string | null;
}

const userLabel = (user: { name: string; email: string } | null | undefined) => (user ? `${user.name} (${user.email})` : null);

export async function loadPlanPage(actor: Actor, planId: string, options: { page?: number } = {}): Promise<PlanPageData> {
  const plan = await prisma.changePlan.findFirst({ where: { id: planId, teamId: actor.teamId } });
  if (!plan) throw new NotFoundError("That plan no longer exists, or it is not in your team.");
  const userIds = [plan.authorId, plan.approvedById, plan.rejectedById, plan.appliedById].filter((id): id is string => Boolean(id));
  const [users, membership, review, steps, reverts, undoneBy] = await Promise.all([
    prisma.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true, email: true } }),
    prisma.membership.findUnique({ where: { userId: actor.userId }, select: { role: true, teamId: true } }),
    reviewRequired(actor.teamId),
    readSteps(plan.id),
    plan.revertsPlanId ? prisma.changePlan.findFirst({ where: { id: plan.revertsPlanId, teamId: actor.teamId }, select: { id: true, title: true } }) : null,
    prisma.changePlan.findFirst({
      where: { revertsPlanId: plan.id, teamId: actor.teamId, status: { not: "cancelled" } },
      select: { id: true, title: true, status: true },
      orderBy: { createdAt: "desc" },
    }),
  ]);
  const byId = new Map(users.map((user) => [user.id, user]));
  const status = plan.status as PlanStatus;
  const open = status === "draft" || status === "submitted" || status === "approved";

  // Names and the impact come from the plan's own account: read with a credential of another, they
  // would name that account's groups and judge its findings (issue 35).
  const sameAccount = await readsAccount(actor, plan.accountKey);
  const health = sameAccount ? await loadHealthReport(actor) : null;
  const setup = health?.kind === "ok" ? health.snapshot.data : null;
  const groupNames = new Map((setup?.groups ?? []).map((group) => [group.id, labelOf(group)]));
  const eventNames = new Map((setup?.events ?? []).map((event) => [event.id, labelOf(event)]));
  const groupHeaders = new Map((setup?.groups ?? []).map((group) => [group.id, (group.headers ?? []).map((header) => header.key)]));
  const names = { group: (id: number) => groupNames.get(id), event: (id: number) => eventNames.get(id), groupHeaders: (id: number) => groupHeaders.get(id) };

  const counts = { pending: 0, running: 0, applied: 0, failed: 0, conflict: 0, skipped: 0 } satisfies Record<StepState, number>;
  for (const step of steps) counts[step.state]++;
  const pageCount = Math.max(1, Math.ceil(steps.length / OPERATIONS_PER_PAGE));
  // A page number from the URL may be a fraction (?page=1.5): pages are whole.
  const page = Math.min(Math.max(1, Math.floor(options.page ?? 1)), pageCount);
  const start = (page - 1) * OPERATIONS_PER_PAGE;
  const shown = steps.slice(start, start + OPERATIONS_PER_PAGE);
  // Runs, not one section per group: the operations stay in the order they are applied in.
  const sections: PlanGroupSection[] = [];
  let previousGroup = start > 0 ? describeOperation(steps[start - 1].operation, names).groupId : undefined;
  for (const step of shown) {
    const diff = describeOperation(step.operation, names);
    const key = diff.groupId;
    let section = sections.at(-1);
    if (!section || section.groupId !== key) {
      const groupName = key === null ? "No group" : (groupNames.get(key) ?? `Group #${key}`);
      section = { groupId: key, groupName, continued: sections.length === 0 && previousGroup === key, steps: [] };
      sections.push(section);
    }
    section.steps.push({ position: step.position, state: step.state, message: step.message, diff });
    previousGroup = key;
  }
  const underWay = status === "applying" ? (steps.find((step) => step.state === "running") ?? steps.find((step) => step.state === "pending")) : undefined;
  const current = underWay ? { position: underWay.position, page: Math.floor(steps.indexOf(underWay) / OPERATIONS_PER_PAGE) + 1 } : null;

  const pending = steps.filter((step) => step.state !== "applied" && step.state !== "skipped").map((step) => step.operation);
  const impact = open && setup && health?.kind === "ok" ? planImpact(setup, pending, { now: new Date(), requiredTriggers: health.requiredTriggers }) : null;
  const budget = health?.kind === "ok" ? health.budget : null;
  const limit = budget?.limit ?? 2000;
  const reserved = Math.ceil(limit * emsConfig().backgroundReserveShare);
  const cost = planCost(pending, { limit, remaining: budget?.remaining ?? limit, resetInSeconds: budget?.resetInSeconds ?? 0, windowSeconds: 600, reserved });

  const manager = membership?.teamId === actor.teamId && canManageTeam(membership.role);
  const author = plan.authorId === actor.userId;
  const ownApprovalBlocked = review && author;
  const introducedByAuthor =
    review && !author && manager && status === "submitted" && plan.authorId !== null && plan.submittedAt !== null
      ? await madeManagerBy(plan.authorId, actor.userId, actor.teamId, plan.submittedAt)
      : false;
  return {
    id: plan.id,
    title: plan.title,
    status,
    stopReason: plan.stopReason,
    createdAt: plan.createdAt,
    author: userLabel(plan.authorId ? byId.get(plan.authorId) : null),
    approvedBy: userLabel(plan.approvedById ? byId.get(plan.approvedById) : null) ?? plan.approvedByEmail,
    approvedAt: plan.approvedAt,
    rejectedBy: userLabel(plan.rejectedById ? byId.get(plan.rejectedById) : null),
    rejectReason: plan.rejectReason,
    appliedBy: userLabel(plan.appliedById ? byId.get(plan.appliedById) : null),
    appliedAt: plan.appliedAt,
    cancelRequested: plan.cancelRequestedAt !== null,
    awaitingApplier: status === "applying" && (plan.leaseUntil === null || plan.leaseUntil.getTime() < Date.now()),
    revertsPlan: reverts,
    undoneBy,
    operationCount: steps.length,
    counts,
    current,
    sections,
    page,
    pageCount,
    impact,
    impactUnavailable: !open
      ? null
      : !health
        ? "Your API credentials are for another EMS account than this plan's (or you have none): its impact and group names are not shown."
        : health.kind !== "ok"
          ? "message" in health
            ? health.message
            : "Save API credentials to see the impact."
          : null,
    cost,
    reviewRequired: review,
    can: {
      submit: status === "draft" && (author || manager),
      approve: status === "submitted" && manager && !ownApprovalBlocked && !introducedByAuthor && sameAccount,
      reject: (status === "submitted" || status === "approved") && manager,
      apply: (status === "approved" || status === "failed") && manager,
      cancel:
        ((status === "draft" || status === "submitted" || status === "approved" || status === "rejected") && (author || manager)) ||
        (status === "applying" && manager && !plan.cancelRequestedAt),
      replan: status === "conflict" || status === "failed",
      undo: counts.applied > 0 && (status === "applied" || status === "failed" || status === "conflict" || status === "cancelled") && !undoneBy,
    },
    editHref:
      status === "draft" && author && steps.length === 1 && steps[0].operation.operation === "webhooks.update"
        ? `/webhooks/${steps[0].operation.recordId}/edit?plan=${plan.id}`
        : null,
    approveBlockedBecause:
      status === "submitted" && manager && ownApprovalBlocked
        ? "You drafted this plan: another owner or admin approves it."
        : introducedByAuthor
          ? INTRODUCED_BY_AUTHOR_MESSAGE
          : status === "submitted" && manager && !sameAccount
            ? OTHER_ACCOUNT_MESSAGE
            : status === "submitted" && !manager
              ? "An owner or admin approves it."
              : null,
  };
}

export interface PlanListItem {
  id: string;
  title: string;
  status: PlanStatus;
  author: string | null;
  createdAt: Date;
  updatedAt: Date;
  operations: number;
  reverts: boolean;
}

export const PLAN_FILTERS = {
  open: ["draft", "submitted", "approved", "applying"],
  applied: ["applied"],
  stopped: ["failed", "conflict"],
  closed: ["rejected", "cancelled"],
} as const satisfies Record<string, readonly PlanStatus[]>;
export type PlanFilter = keyof typeof PLAN_FILTERS | "all";
export const PLANS_PER_PAGE = 50;

/** Beyond the states: the plans waiting for this person's review, those an applied undo reverted. */
export type PlanListFilter = PlanFilter | "reverted" | "review";

export interface PlanListOptions {
  /** Only this person's own plans. */
  mine?: boolean;
  /** Words of the title (case ignored). */
  query?: string;
}

/** A title search: trimmed, at most this long (longer text is cut, not refused). */
export const PLAN_QUERY_MAX = 100;

/**
 * The team's plans, newest first, by filter ("reverted": plans an applied undo reverted; "review":
 * plans sent for review by someone else, which this person, an owner or admin, may approve).
 */
export async function listPlans(
  actor: Actor,
  filter: PlanListFilter,
  page = 1,
  options: PlanListOptions = {},
): Promise<{ items: PlanListItem[]; total: number; page: number; pageCount: number }> {
  const reverted =
    filter === "reverted"
      ? (await prisma.changePlan.findMany({ where: { teamId: actor.teamId, status: "applied", revertsPlanId: { not: null } }, select: { revertsPlanId: true } })).map(
          (plan) => plan.revertsPlanId!,
        )
      : null;
  const byFilter: Prisma.ChangePlanWhereInput = reverted
    ? { id: { in: reverted } }
    : filter === "review"
      ? canManageTeam(actor.role)
        ? { status: "submitted", OR: [{ authorId: null }, { authorId: { not: actor.userId } }] }
        : { id: { in: [] } }
      : filter === "all" || filter === "reverted"
        ? {}
        : { status: { in: [...PLAN_FILTERS[filter]] } };
  const query = options.query?.trim().slice(0, PLAN_QUERY_MAX);
  const where: Prisma.ChangePlanWhereInput = {
    teamId: actor.teamId,
    ...byFilter,
    ...(options.mine ? { authorId: actor.userId } : {}),
    ...(query ? { title: { contains: query, mode: "insensitive" } } : {}),
  };
  const total = await prisma.changePlan.count({ where });
  const pageCount = Math.max(1, Math.ceil(total / PLANS_PER_PAGE));
  // A page number from the URL may be a fraction (?page=1.01): a fractional offset is a database error.
  const current = Math.min(Math.max(1, Math.floor(page)), pageCount);
  const rows = await prisma.changePlan.findMany({
    where,
    orderBy: { updatedAt: "desc" },
    skip: (current - 1) * PLANS_PER_PAGE,
    take: PLANS_PER_PAGE,
    select: { id: true, title: true, status: true, authorId: true, createdAt: true, updatedAt: true, revertsPlanId: true, _count: { select: { steps: true } } },
  });
  const authors = await prisma.user.findMany({
    where: { id: { in: rows.map((row) => row.authorId).filter((id): id is string => Boolean(id)) } },
    select: { id: true, name: true },
  });
  const names = new Map(authors.map((user) => [user.id, user.name]));
  return {
    items: rows.map((row) => ({
      id: row.id,
      title: row.title,
      status: row.status as PlanStatus,
      author: row.authorId ? (names.get(row.authorId) ?? null) : null,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      operations: row._count.steps,
      reverts: row.revertsPlanId !== null,
    })),
    total,
    page: current,
    pageCount,
  };
}
