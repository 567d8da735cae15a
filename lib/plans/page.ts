import "server-only";
import { authorWords, fixCheckTitle } from "./policy-author";
import type { Actor } from "@/lib/access/actor";
import { prisma } from "@/lib/db/prisma";
import type { Prisma } from "@/lib/generated/prisma/client";
import { emsConfig } from "@/lib/ems";
import { readHealthReport } from "@/lib/health/report";
import { labelOf, utcDay, type SetupData } from "@/lib/setup/setup-data";
import type { RuleContext } from "@/lib/health/rules";
import { costOfCredits, creditsOf, type PlanCost } from "./cost";
import { describeOperation, type OperationDiff } from "./diff";
import { planImpact, type PlanImpact } from "./impact";
import { BEFORE_APPLY, decideApproveAndApply, isBeforeApply, PlanStatus, permissionsFor, shownStatus, type PlanMove, type PlanShownStatus } from "./lifecycle";
import { FACT_COLUMNS, planFacts, planOfTeam, reviewsPlans } from "./plan-access";
import { readSteps, stepChanges, type StoredStep } from "./store";
import type { DraftOperation } from "./operations";
import { loadListing } from "@/lib/listing/load";
import { parseListingSearchParams } from "@/lib/listing/search-params";
import type { RateBudget } from "@/lib/ems-access/shared-read";
import type { StepState } from "./steps";

/**
 * What the plan page shows (app/(portal)/plans/[id]): plain data only, never a header value (the
 * diff names headers; before-states and changes stay on the server). The impact is computed on the
 * account's setup as Health reads it, for a plan not applied yet.
 */

/** The plan's columns the page shows (and the facts of who may do what). */
const PAGE_COLUMNS = {
  ...FACT_COLUMNS,
  title: true,
  fixCheck: true,
  stopReason: true,
  createdAt: true,
  approvedById: true,
  approvedByEmail: true,
  approvedAt: true,
  rejectedById: true,
  rejectReason: true,
  appliedAt: true,
  leaseUntil: true,
  revertsPlanId: true,
} as const;

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

/** The plan page's buttons this person is offered (from lib/plans/lifecycle.ts, as the server decides). */
export interface PlanButtons {
  submit: boolean;
  approve: boolean;
  reject: boolean;
  apply: boolean;
  applyUndo: boolean;
  cancel: boolean;
  undo: boolean;
  replan: boolean;
  approveAndApply: boolean;
}

export interface PlanPageData {
  id: string;
  title: string;
  status: PlanStatus;
  /** What its badge says: "undone" once its undo applied (lifecycle.ts `shownStatus`). */
  shownStatus: PlanShownStatus;
  stopReason: string | null;
  createdAt: Date;
  author: string | null;
  /** The Health check whose fix the team's policy drafted as this plan (its title), or null for a person's plan. */
  draftedFor: string | null;
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
  undoneBy: { id: string; title: string; status: PlanStatus } | null;
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
  can: PlanButtons;
  /** Where its author edits it while it is a draft (a plan of one webhook change). */
  editHref: string | null;
  /** Why this person may not approve, when the plan waits for approval. */
  approveBlockedBecause: string | null;
}

const userLabel = (user: { name: string; email: string } | null | undefined) => (user ? `${user.name} (${user.email})` : null);

/** The operations not applied yet, their changes only (what the impact simulates), a batch of steps at a time. */
async function pendingOperations(planId: string): Promise<DraftOperation[]> {
  const operations: DraftOperation[] = [];
  for await (const step of stepChanges(planId, prisma, { state: { notIn: ["applied", "skipped"] } })) {
    operations.push({ operation: step.operation, recordId: step.recordId ?? undefined, changes: step.changes, before: null });
  }
  return operations;
}

/**
 * Impacts computed in this process, by the setup they were computed on (its groups' array: the same
 * frozen array while every page of it is the same shared answer, lib/setup/load.ts) and the plan. A
 * plan's steps do not change before it is applied, and each view of its page (a person's, the page
 * after each of its buttons) ran the health checks and coverage on the whole setup after the plan,
 * and coverage before it, and decrypted every step's changes: for a 5,000-step plan on a 5,000-group
 * account, the most garbage a review made (bench:memory's review phase). Weak: an entry goes with its
 * setup; a few plans a setup.
 */
const impacts = new WeakMap<SetupData["groups"], Map<string, { events: SetupData["events"]; impact: PlanImpact }>>();
const IMPACTS_PER_SETUP = 4;

async function impactOf(planId: string, pendingCount: number, setup: SetupData, context: RuleContext): Promise<PlanImpact> {
  const shared = Object.isFrozen(setup.groups) && Object.isFrozen(setup.events);
  const key = `${planId}\n${pendingCount}\n${utcDay(context.now)}\n${context.requiredTriggers.join(",")}`;
  const known = shared ? impacts.get(setup.groups) : undefined;
  const hit = known?.get(key);
  if (hit && hit.events === setup.events) return hit.impact;
  const impact = planImpact(setup, await pendingOperations(planId), context);
  if (!shared) return impact;
  const entries = known ?? new Map<string, { events: SetupData["events"]; impact: PlanImpact }>();
  entries.delete(key);
  entries.set(key, { events: setup.events, impact });
  while (entries.size > IMPACTS_PER_SETUP) entries.delete(entries.keys().next().value!);
  if (!known) impacts.set(setup.groups, entries);
  return impact;
}

/**
 * The names of the groups the shown steps are in, from one listing of their ids (at most a page's
 * worth: OPERATIONS_PER_PAGE, the listing's limit of ids), with the budget it reports.
 */
async function groupNamesOf(actor: Actor, steps: readonly StoredStep[]): Promise<{ names: Map<number, string>; budget: RateBudget | null }> {
  const ids = [...new Set(steps.map((step) => describeOperation(step.operation).groupId).filter((id): id is number => id !== null && id > 0))];
  if (ids.length === 0) return { names: new Map(), budget: null };
  const state = parseListingSearchParams("webhook-groups", { ids: ids.join(",") });
  const outcome = await loadListing(actor, { ...state, fields: ["id", "name"], page: 1, perPage: OPERATIONS_PER_PAGE });
  if (outcome.kind !== "ok") return { names: new Map(), budget: null };
  return { names: new Map(outcome.items.map((item) => [Number(item.id), labelOf(item as { id: number; name?: string })])), budget: outcome.budget };
}

/**
 * The plan page's data with a bounded working set whatever the plan's size: the steps are counted
 * in SQL and only the page shown is read and decrypted (before-states included); the impact, for
 * a plan not applied yet, walks the steps' changes a batch at a time over the setup Health reads.
 * A plan under way or ended reads no setup at all (each write drops the account's shared answers,
 * so every view while it applies would read all of it from the EMS again): the names of the
 * groups shown come from one listing of their ids.
 */
export async function loadPlanPage(actor: Actor, planId: string, options: { page?: number } = {}): Promise<PlanPageData> {
  const plan = await planOfTeam(actor, planId, PAGE_COLUMNS);
  const userIds = [plan.authorId, plan.approvedById, plan.rejectedById, plan.appliedById].filter((id): id is string => Boolean(id));
  // Who may do what: the same facts and decisions the server's functions refuse with (lifecycle.ts).
  const [users, { who, facts }, tally, reverts, undoneBy] = await Promise.all([
    prisma.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true, email: true } }),
    planFacts(actor, plan),
    prisma.changePlanStep.groupBy({ by: ["state", "operation"], where: { planId: plan.id }, _count: { _all: true }, _min: { position: true } }),
    plan.revertsPlanId ? prisma.changePlan.findFirst({ where: { id: plan.revertsPlanId, teamId: actor.teamId }, select: { id: true, title: true } }) : null,
    prisma.changePlan.findFirst({
      where: { revertsPlanId: plan.id, teamId: actor.teamId, status: { not: PlanStatus.cancelled } },
      select: { id: true, title: true, status: true },
      orderBy: { createdAt: "desc" },
    }),
  ]);
  const byId = new Map(users.map((user) => [user.id, user]));
  const status = plan.status;
  const open = isBeforeApply(status);

  const counts = { pending: 0, running: 0, applied: 0, failed: 0, conflict: 0, skipped: 0 } satisfies Record<StepState, number>;
  let operationCount = 0;
  let pendingCredits = 0;
  for (const row of tally) {
    counts[row.state as StepState] += row._count._all;
    operationCount += row._count._all;
    if (row.state !== "applied" && row.state !== "skipped")
      pendingCredits += creditsOf([{ operation: row.operation as DraftOperation["operation"], changes: {}, before: null }]) * row._count._all;
  }
  const pageCount = Math.max(1, Math.ceil(operationCount / OPERATIONS_PER_PAGE));
  // A page number from the URL may be a fraction (?page=1.5): pages are whole.
  const page = Math.min(Math.max(1, Math.floor(options.page ?? 1)), pageCount);
  const start = (page - 1) * OPERATIONS_PER_PAGE;
  // The page's steps, and the one before it (whether its first group is "continued").
  const read = await readSteps(plan.id, prisma, { from: Math.max(0, start - 1), to: start + OPERATIONS_PER_PAGE });
  const before = start > 0 ? read[0] : undefined;
  const shown = start > 0 ? read.slice(1) : read;

  // Names and the impact come from the plan's own account: read with a credential of another, they
  // would name that account's groups and judge its findings (issue 35).
  const sameAccount = facts.credential === "plan-account";
  // Read only: viewing a plan stores nothing (Health's own page records the navigation's counts).
  const health = open && sameAccount ? await readHealthReport(actor) : null;
  const setup = health?.kind === "ok" ? health.snapshot.data : null;
  const listed = !open && sameAccount ? await groupNamesOf(actor, shown) : null;
  const groupNames = setup ? new Map(setup.groups.map((group) => [group.id, labelOf(group)])) : (listed?.names ?? new Map<number, string>());
  const eventNames = new Map((setup?.events ?? []).map((event) => [event.id, labelOf(event)]));
  const groupHeaders = new Map((setup?.groups ?? []).map((group) => [group.id, (group.headers ?? []).map((header) => header.key)]));
  const names = { group: (id: number) => groupNames.get(id), event: (id: number) => eventNames.get(id), groupHeaders: (id: number) => groupHeaders.get(id) };

  // Runs, not one section per group: the operations stay in the order they are applied in.
  const sections: PlanGroupSection[] = [];
  let previousGroup = before ? describeOperation(before.operation, names).groupId : undefined;
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
  // The step being sent (or next to be), from the same statement as the counts, so the two agree.
  const firstOf = (state: StepState) => Math.min(...tally.filter((row) => row.state === state).map((row) => row._min.position ?? Infinity));
  const firstRunning = firstOf("running");
  const firstPending = firstOf("pending");
  const underWay = status !== PlanStatus.applying ? null : Number.isFinite(firstRunning) ? firstRunning : Number.isFinite(firstPending) ? firstPending : null;
  const current = underWay !== null ? { position: underWay, page: Math.floor(underWay / OPERATIONS_PER_PAGE) + 1 } : null;

  const pendingCount = operationCount - counts.applied - counts.skipped;
  const impact =
    health?.kind === "ok" ? await impactOf(plan.id, pendingCount, health.snapshot.data, { now: new Date(), requiredTriggers: health.requiredTriggers }) : null;
  const budget = health?.kind === "ok" ? health.budget : (listed?.budget ?? null);
  const limit = budget?.limit ?? 2000;
  const reserved = Math.ceil(limit * emsConfig().backgroundReserveShare);
  const cost = costOfCredits(pendingCredits, { limit, remaining: budget?.remaining ?? limit, resetInSeconds: budget?.resetInSeconds ?? 0, windowSeconds: 600, reserved });

  const decisions = permissionsFor(who, facts);
  const offered = (move: PlanMove) => decisions[move].allowed;
  const approveDecision = decisions.approve;
  return {
    id: plan.id,
    title: plan.title,
    status,
    shownStatus: shownStatus(status, undoneBy?.status === PlanStatus.applied),
    stopReason: plan.stopReason,
    createdAt: plan.createdAt,
    author: authorWords(plan, userLabel(plan.authorId ? byId.get(plan.authorId) : null)),
    draftedFor: fixCheckTitle(plan.fixCheck),
    approvedBy: userLabel(plan.approvedById ? byId.get(plan.approvedById) : null) ?? plan.approvedByEmail,
    approvedAt: plan.approvedAt,
    rejectedBy: userLabel(plan.rejectedById ? byId.get(plan.rejectedById) : null),
    rejectReason: plan.rejectReason,
    appliedBy: userLabel(plan.appliedById ? byId.get(plan.appliedById) : null),
    appliedAt: plan.appliedAt,
    cancelRequested: plan.cancelRequestedAt !== null,
    awaitingApplier: status === PlanStatus.applying && (plan.leaseUntil === null || plan.leaseUntil.getTime() < Date.now()),
    revertsPlan: reverts,
    undoneBy,
    operationCount,
    counts,
    current,
    sections,
    page,
    pageCount,
    impact,
    impactUnavailable: !open
      ? null
      : !sameAccount
        ? "Your API credentials are for another EMS account than this plan's (or you have none): its impact and group names are not shown."
        : health && health.kind !== "ok"
          ? "message" in health
            ? health.message
            : "Save API credentials to see the impact."
          : null,
    cost,
    reviewRequired: facts.reviewRequired,
    can: {
      submit: offered("submit"),
      approve: offered("approve"),
      reject: offered("reject"),
      apply: offered("apply"),
      applyUndo: offered("applyUndo"),
      // One button: cancelling a plan not started, or stopping one being applied.
      cancel: offered("cancel") || offered("stop"),
      replan: offered("replan"),
      undo: offered("undo"),
      approveAndApply: decideApproveAndApply(who, facts).allowed,
    },
    editHref:
      status === PlanStatus.draft && plan.authorId === actor.userId && operationCount === 1 && shown[0]?.operation.operation === "webhooks.update"
        ? `/webhooks/${shown[0].operation.recordId}/edit?plan=${plan.id}`
        : null,
    // Said only while the plan waits for review: why this person has no Approve button.
    approveBlockedBecause: status === PlanStatus.submitted && !approveDecision.allowed ? approveDecision.message : null,
  };
}

/** What the plan page's live progress shows while a plan is applied: counted in SQL, nothing decrypted, no EMS call. */
export interface PlanProgress {
  status: PlanStatus;
  operationCount: number;
  counts: Record<StepState, number>;
  current: { position: number; page: number } | null;
}

/** The plan's progress (GET /api/plans/{id}/progress, polled every two seconds while it applies). */
export async function loadPlanProgress(actor: Actor, planId: string): Promise<PlanProgress> {
  const plan = await planOfTeam(actor, planId, { id: true, status: true });
  const { counts, underWay } = await stepStates(planId);
  return {
    status: plan.status,
    operationCount: Object.values(counts).reduce((sum, count) => sum + count, 0),
    counts,
    current: plan.status === PlanStatus.applying && underWay !== null ? { position: underWay, page: Math.floor(underWay / OPERATIONS_PER_PAGE) + 1 } : null,
  };
}

/**
 * The steps' counts by state and the step being sent (or the next to be), read in one statement:
 * read apart, a step that finished in between made the bar say "4 of 35 done" beside "Now: step 6".
 */
async function stepStates(planId: string): Promise<{ counts: Record<StepState, number>; underWay: number | null }> {
  const rows = await prisma.$queryRaw<{ state: string; n: number; first: number }[]>`
    SELECT "state", count(*)::integer AS "n", min("position")::integer AS "first" FROM "ChangePlanStep" WHERE "planId" = ${planId} GROUP BY "state"`;
  const counts = { pending: 0, running: 0, applied: 0, failed: 0, conflict: 0, skipped: 0 } satisfies Record<StepState, number>;
  for (const row of rows) counts[row.state as StepState] += row.n;
  const first = (state: StepState) => rows.find((row) => row.state === state)?.first ?? null;
  return { counts, underWay: first("running") ?? first("pending") };
}

export interface PlanListItem {
  id: string;
  title: string;
  status: PlanStatus;
  /** What its badge says: "undone" once its undo applied. */
  shownStatus: PlanShownStatus;
  author: string | null;
  createdAt: Date;
  updatedAt: Date;
  operations: number;
  reverts: boolean;
}

export const PLAN_FILTERS = {
  open: [...BEFORE_APPLY, PlanStatus.applying],
  applied: [PlanStatus.applied],
  stopped: [PlanStatus.failed, PlanStatus.conflict],
  closed: [PlanStatus.rejected, PlanStatus.cancelled],
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
      ? (
          await prisma.changePlan.findMany({ where: { teamId: actor.teamId, status: PlanStatus.applied, revertsPlanId: { not: null } }, select: { revertsPlanId: true } })
        ).map((plan) => plan.revertsPlanId!)
      : null;
  // "Applied" lists what is applied now: a plan whose undo applied reads "Undone" and lists there.
  const undoneIds =
    filter === "applied"
      ? (
          await prisma.changePlan.findMany({ where: { teamId: actor.teamId, status: PlanStatus.applied, revertsPlanId: { not: null } }, select: { revertsPlanId: true } })
        ).map((plan) => plan.revertsPlanId!)
      : [];
  const byFilter: Prisma.ChangePlanWhereInput = reverted
    ? { id: { in: reverted } }
    : filter === "applied"
      ? { status: PlanStatus.applied, id: { notIn: undoneIds } }
      : filter === "review"
        ? (await reviewsPlans(actor))
          ? { status: PlanStatus.submitted, OR: [{ authorId: null }, { authorId: { not: actor.userId } }] }
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
    select: {
      id: true,
      title: true,
      status: true,
      authorId: true,
      fixCheck: true,
      createdAt: true,
      updatedAt: true,
      revertsPlanId: true,
      _count: { select: { steps: true } },
    },
  });
  const authors = await prisma.user.findMany({
    where: { id: { in: rows.map((row) => row.authorId).filter((id): id is string => Boolean(id)) } },
    select: { id: true, name: true },
  });
  const names = new Map(authors.map((user) => [user.id, user.name]));
  // Which of the page's plans an applied undo put back: one indexed lookup for the page.
  const undone = new Set(
    (
      await prisma.changePlan.findMany({
        where: { teamId: actor.teamId, status: PlanStatus.applied, revertsPlanId: { in: rows.map((row) => row.id) } },
        select: { revertsPlanId: true },
      })
    ).map((plan) => plan.revertsPlanId),
  );
  return {
    items: rows.map((row) => ({
      id: row.id,
      title: row.title,
      status: row.status,
      shownStatus: shownStatus(row.status, undone.has(row.id)),
      author: authorWords(row, row.authorId ? (names.get(row.authorId) ?? null) : null),
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
