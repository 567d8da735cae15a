import "server-only";
import { queueAlerts } from "@/lib/alerts/deliveries";
import { audit } from "@/lib/audit/log";
import { hasPermission } from "@/lib/access/roles";
import { prisma } from "@/lib/db/prisma";
import { getEmsClient, getEmsWriter } from "@/lib/ems";
import { syncTracker } from "@/lib/history/sync";
import { log } from "@/lib/log";
import { portalOriginFor } from "@/lib/portal-origin";
import { announcePlanMove } from "./announce";
import { applyPlanSteps, type ApplyOutcome } from "./apply";
import { findDriftAfterSyncs } from "./drift";
import { PLAN_TRANSITIONS, PlanStatus } from "./lifecycle";
import { credentialForPlan } from "./plan-access";
import { plural } from "@/lib/text/plural";

/**
 * Running a plan whose applier started it (lib/plans/apply.ts startApply), outside the request:
 * the job engine's `plan-apply` job (lib/jobs/plan-apply-job.ts), or on Vercel the request's own
 * time after the answer. Any instance may run it: the plan's lease makes one applier at a time, and
 * a plan whose applier stopped (a crash, a function's time limit) is taken up by the next run.
 *
 * After the last step: the team's change history of the account is synced, its new changes are
 * attributed to the person ("jane@example.com through EMS Portal"), the audit log and the team's
 * alert destinations hear how it ended.
 */

/**
 * Plans due now: started and not claimed; or applying with no live applier, because it released
 * the plan (a shutdown, a time limit) or died and its lease ran out.
 */
export async function duePlanIds(limit = 10, except: readonly string[] = []): Promise<string[]> {
  const rows = await prisma.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "ChangePlan"
     WHERE (("status" = 'approved' AND "appliedById" IS NOT NULL AND "leaseId" IS NULL)
        OR ("status" = 'applying' AND ("leaseUntil" IS NULL OR "leaseUntil" < now())))
       AND "id" <> ALL(${[...except]})
     ORDER BY "updatedAt" ASC
     LIMIT ${limit}`;
  return rows.map((row) => row.id);
}

async function stopWithout(planId: string, reason: string): Promise<void> {
  await prisma.changePlan.updateMany({
    where: { id: planId, status: { in: [PlanStatus.approved, PlanStatus.applying] } },
    data: { status: PlanStatus.failed, stopReason: reason, leaseId: null, leaseUntil: null },
  });
}

/** Runs one plan with its applier's own credential; null when it is not (any more) to be run. */
export async function runPlan(planId: string, options: { signal?: AbortSignal; deadline?: number } = {}): Promise<ApplyOutcome | null> {
  const plan = await prisma.changePlan.findUnique({
    where: { id: planId },
    select: { id: true, teamId: true, title: true, accountKey: true, appliedById: true, status: true, _count: { select: { steps: true } } },
  });
  if (!plan?.appliedById || (plan.status !== PlanStatus.approved && plan.status !== PlanStatus.applying)) return null;
  // The applier as the database has them now: still an owner or admin of the plan's team.
  const membership = await prisma.membership.findUnique({ where: { userId: plan.appliedById }, select: { teamId: true, role: true, user: { select: { email: true } } } });
  if (!membership || membership.teamId !== plan.teamId || !hasPermission(membership.role, PLAN_TRANSITIONS.apply.who.permission)) {
    await stopWithout(planId, "The person who started it is no longer an owner or admin of the team. Start it again.");
    return null;
  }
  const { credential } = await credentialForPlan({ userId: plan.appliedById }, plan.accountKey);
  if (!credential) {
    await stopWithout(planId, "The credentials of the person who started it are gone or are for another account. Start it again.");
    return null;
  }
  const started = Date.now();
  const outcome = await applyPlanSteps(planId, {
    writer: getEmsWriter(credential),
    client: getEmsClient(credential),
    teamId: plan.teamId,
    signal: options.signal,
    deadline: options.deadline,
  });
  if (outcome.status === "busy" || outcome.status === "lost-lease" || outcome.status === "paused") return outcome;
  await afterApply({ ...plan, applierEmail: membership.user.email, applierId: plan.appliedById }, outcome, started).catch((error: unknown) => {
    log.error({ event: "plans.after_apply_failed", planId, err: error }, "a plan's follow-up (history, audit, alerts) failed");
  });
  return outcome;
}

/** How many plans one instance applies at once: each waits on the EMS far more than it computes. */
export const PLANS_AT_ONCE = 4;
/** How often a run looks for plans that became due while it works (someone pressed Apply, an applier died). */
const LOOK_AGAIN_MS = 2_000;

/**
 * Applies the plans that are due, up to PLANS_AT_ONCE at a time, looking again every few seconds
 * while any runs, so a plan started (or left by a dead applier) meanwhile does not wait behind a
 * long one; until none is due, the signal aborts, or the deadline (epoch ms) passes. Then each
 * plan under way stops between steps and is released, due for the next run: `unfinished` says
 * one is waiting (the job engine sends the next run at once).
 */
export async function runDuePlans(options: { signal?: AbortSignal; deadline?: number } = {}): Promise<{ ran: number; unfinished: boolean }> {
  const running = new Map<string, Promise<void>>();
  // Each plan once a run: one whose turn changed nothing (another applier took it meanwhile, or it
  // cannot be run) would otherwise be started again every few seconds, and a run with no deadline
  // would never end. One that is due again goes on at the next run.
  const tried = new Set<string>();
  let ran = 0;
  const timeIsUp = () => options.signal?.aborted || (options.deadline !== undefined && Date.now() >= options.deadline);
  for (;;) {
    if (!timeIsUp() && running.size < PLANS_AT_ONCE) {
      for (const id of await duePlanIds(PLANS_AT_ONCE, [...tried])) {
        if (running.size >= PLANS_AT_ONCE) break;
        tried.add(id);
        const run = runPlan(id, options).then(
          (outcome) => {
            // Counted when it ended here: applied, stopped or cancelled (not paused for the next run, nor taken by another).
            if (outcome && outcome.status !== "busy" && outcome.status !== "paused" && outcome.status !== "lost-lease") ran++;
          },
          (error: unknown) => log.error({ event: "plans.run_failed", planId: id, err: error }, "running a plan failed"),
        );
        running.set(
          id,
          run.finally(() => running.delete(id)),
        );
      }
    }
    if (running.size === 0) break;
    await Promise.race([...running.values(), delay(LOOK_AGAIN_MS)]);
  }
  return { ran, unfinished: timeIsUp() === true && (await duePlanIds(1)).length > 0 };
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

const OUTCOME_WORDS: Record<"applied" | "failed" | "conflict" | "cancelled", string> = {
  applied: "applied",
  failed: "stopped: a step failed",
  conflict: "stopped: a record changed in the EMS since the plan was made",
  cancelled: "cancelled while being applied",
};

async function afterApply(
  plan: { id: string; teamId: string; title: string; accountKey: string; applierEmail: string; applierId: string; _count: { steps: number } },
  outcome: Exclude<ApplyOutcome, { status: "busy" | "lost-lease" | "paused" }>,
  started: number,
): Promise<void> {
  const reason = "message" in outcome ? outcome.message : null;
  await audit({
    action: outcome.status === "applied" ? "plan.applied" : "plan.apply_stopped",
    teamId: plan.teamId,
    actorId: plan.applierId,
    actorEmail: plan.applierEmail,
    target: plan.id,
    metadata: { title: plan.title, operations: plan._count.steps, applied: outcome.applied, ...(reason ? { reason } : {}) },
  });
  if (outcome.status !== "cancelled") await announcePlanMove(outcome.status, plan.id, { userId: plan.applierId, email: plan.applierEmail });
  const tracker = await prisma.changeTracker.findUnique({
    where: { teamId_accountKey: { teamId: plan.teamId, accountKey: plan.accountKey } },
    select: { id: true, status: true },
  });
  if (!tracker) return;
  if (outcome.applied > 0 && tracker.status === "active") {
    // The feed shows the change now, not at the next scheduled sync, and says who made it.
    const synced = await syncTracker(tracker.id, { trigger: "manual", force: true });
    await attributeChanges(tracker.id, plan.id, plan.applierEmail, new Date(started - 60_000));
    // Attributed first: a drift this sync finds on another plan's record names who made it.
    if (synced.status === "ok" && !synced.baseline) await findDriftAfterSyncs([synced.syncId]);
  }
  await queueAlerts({
    trackerId: tracker.id,
    teamId: plan.teamId,
    syncId: `plan:${plan.id}:${outcome.status}:${outcome.applied}`,
    kind: "changes",
    subject: `Change plan “${plan.title}” ${OUTCOME_WORDS[outcome.status]}`,
    lines: [`${plan.applierEmail} applied ${outcome.applied} of ${plural(plan._count.steps, "change")} through EMS Portal.`, ...(reason ? [reason] : [])],
    link: `${portalOriginFor(null)}/plans/${plan.id}`,
  });
}

/**
 * The history's changes of the plan's records since it started, made through the API (the EMS says
 * `API (<key>)`), are the plan's: they name the person who applied it.
 */
async function attributeChanges(trackerId: string, planId: string, email: string, since: Date): Promise<void> {
  const steps = await prisma.changePlanStep.findMany({ where: { planId, state: "applied", recordId: { not: null } }, select: { recordId: true, operation: true } });
  const byKind = { webhook: new Set<number>(), group: new Set<number>() };
  for (const step of steps) byKind[step.operation.startsWith("webhook-groups.") ? "group" : "webhook"].add(step.recordId!);
  for (const [kind, ids] of Object.entries(byKind)) {
    if (ids.size === 0) continue;
    await prisma.setupChange.updateMany({
      where: { trackerId, kind, recordId: { in: [...ids] }, seenAt: { gte: since }, OR: [{ changedBy: null }, { changedBy: { startsWith: "API (" } }] },
      data: { changedBy: `${email} through EMS Portal` },
    });
  }
}
