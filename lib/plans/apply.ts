import "server-only";
import { randomUUID } from "node:crypto";
import { prisma } from "@/lib/db/prisma";
import {
  EmsError,
  getEmsClient,
  getEmsWriter,
  RecordGoneError,
  type EmsClient,
  type EmsWriter,
  type NewWebhook,
  type NewWebhookGroup,
  type Webhook,
  type WebhookChanges,
  type WebhookGroup,
  type WebhookGroupChanges,
  type WriteOperation,
} from "@/lib/ems";
import type { Actor } from "@/lib/access/actor";
import type { RequestContext } from "@/lib/access/guards";
import { NoCredentialError } from "@/lib/ems-access/credential";
import { auditByActor } from "@/lib/audit/log";
import { plansEnv } from "@/lib/env";
import { log } from "@/lib/log";
import { metrics } from "@/lib/telemetry/metrics";
import { announcePlanMove } from "./announce";
import { planDigest } from "./review";
import { PLAN_TRANSITIONS, PlanStatus } from "./lifecycle";
import { credentialForPlan, PlanNotApprovedError, planFor } from "./plan-access";
import { differsFrom, resourceOf, without } from "./operations";
import { withoutHeaderValues, type WithHeaders } from "./redact";
import { openBefore, openChanges, sealBefore, type StepChanges } from "./steps";
import { STEP_BATCH } from "./store";

/**
 * Applies a plan's steps in order (issue 27 §2), resumably, on any number of instances:
 *
 * - One applier at a time: a conditional UPDATE claims the plan for `leaseMs` (like a change
 *   history sync's tracker, lib/history/sync.ts). The holder renews it before every step and, while
 *   a step waits (a rate-limit window, a slow EMS), every third of the lease from a timer: so the
 *   lease can be short (PLAN_APPLY_LEASE_SECONDS, 60 s), and a claim whose holder died (a killed
 *   instance) expires within it and another applier resumes where it stopped (lib/plans/run.ts).
 * - An applier that stops without finishing (its instance shutting down, a function's time limit)
 *   releases the plan, which stays "applying" and is due again at once. A step that fails (the EMS
 *   refused the write, or the read before it, or something unexpected) stops the plan as failed:
 *   never a plan that waits for nobody.
 * - Each step at most once: a step is started by one conditional UPDATE (pending → running) that
 *   also requires the plan's lease to be the starter's; its outcome is stored (applied, failed with
 *   the EMS's message, conflict, skipped) before the next step starts.
 * - A step found "running" (its applier stopped mid-write) is not sent again blindly: the writer
 *   looks whether it was made (lib/ems/writes.ts `wasApplied`), and only a step shown not made goes
 *   back to pending.
 * - Before an update or delete the record is read again (1 credit): if its `updated_at` moved since
 *   the plan was made, the step stops as a conflict ("changed in the EMS by X at T") and so does the
 *   apply. A delete of a record already gone is skipped.
 */

export type ApplyOutcome =
  | { status: "applied"; applied: number }
  | { status: "failed" | "conflict"; applied: number; message: string }
  /** Not claimed: another applier holds it, or it is not ready to apply. */
  | { status: "busy" }
  /** Another applier took the plan over (this one was too slow): it stopped between steps. */
  | { status: "lost-lease"; applied: number }
  /** Someone asked it to stop (lib/plans/review.ts cancelPlan): it stopped between steps. */
  | { status: "cancelled"; applied: number }
  /** Its run's time was up (a function's limit): it stopped between steps, and the next run goes on. */
  | { status: "paused"; applied: number };

export interface ApplyDeps {
  /** The applier's own credential's writer and client (lib/ems). */
  writer: EmsWriter;
  client: EmsClient;
  teamId: string;
  /** How long a claim lasts without renewal; default PLAN_APPLY_LEASE_SECONDS. */
  leaseMs?: number;
  signal?: AbortSignal;
  /** No step starts after this (epoch ms): a serverless function stops between steps, not mid-write. */
  deadline?: number;
}

/** A step found running may have been sent this long before it was marked (clock skew, slow database). */
const SENT_MARGIN_MS = 60_000;

type StepRow = {
  id: string;
  position: number;
  operation: string;
  recordId: number | null;
  changesCiphertext: string;
  beforeCiphertext: string | null;
  expectedUpdatedAt: string | null;
  state: string;
  startedBy: string | null;
  startedAt: Date | null;
};

/**
 * Claims the plan for this applier, if it is free: never claimed, released, or its holder's lease
 * expired. Taking over from an applier that stopped is logged and counted: a dead one is a sign
 * that an instance was killed mid-apply.
 */
async function claim(planId: string, leaseId: string, leaseMs: number): Promise<boolean> {
  const rows = await prisma.$queryRaw<{ wasApplying: boolean; expiredFor: number | null }[]>`
    UPDATE "ChangePlan" AS p
       SET "leaseId" = ${leaseId}, "leaseUntil" = now() + ${`${leaseMs} milliseconds`}::interval, "status" = 'applying', "updatedAt" = now()
      FROM (SELECT "id", "status", "leaseUntil" FROM "ChangePlan" WHERE "id" = ${planId}) AS before
     WHERE p."id" = before."id"
       AND p."status" IN ('approved', 'applying')
       AND (p."leaseUntil" IS NULL OR p."leaseUntil" < now())
 RETURNING before."status" = 'applying' AS "wasApplying", EXTRACT(EPOCH FROM now() - before."leaseUntil")::float8 AS "expiredFor"`;
  if (rows.length !== 1) return false;
  const [{ wasApplying, expiredFor }] = rows;
  if (wasApplying) {
    const reason = expiredFor === null ? "released" : "lease-expired";
    metrics().planResumes.inc({ reason });
    if (reason === "lease-expired") {
      log.warn({ event: "plans.resumed_after_dead_applier", planId, expiredSeconds: Math.round(expiredFor!) }, "a plan whose applier stopped answering is resumed here");
    } else log.info({ event: "plans.resumed", planId }, "a released plan is resumed here");
  }
  return true;
}

/**
 * Extends the claim before a step: "lost" when another applier has taken the plan over, "cancelled"
 * when someone asked it to stop (the claim is kept: the caller stops the plan).
 */
async function renew(planId: string, leaseId: string, leaseMs: number): Promise<"ok" | "lost" | "cancelled"> {
  const renewed = await prisma.$executeRaw`
    UPDATE "ChangePlan" SET "leaseUntil" = now() + ${`${leaseMs} milliseconds`}::interval
     WHERE "id" = ${planId} AND "leaseId" = ${leaseId} AND "cancelRequestedAt" IS NULL`;
  if (renewed === 1) return "ok";
  const mine = await prisma.changePlan.count({ where: { id: planId, leaseId } });
  return mine === 1 ? "cancelled" : "lost";
}

/** pending → running, only while this applier holds the plan: one statement, one winner. */
async function startStep(stepId: string, planId: string, leaseId: string): Promise<boolean> {
  const started = await prisma.$executeRaw`
    UPDATE "ChangePlanStep" AS s
       SET "state" = 'running', "startedBy" = ${leaseId}, "startedAt" = now()
      FROM "ChangePlan" AS p
     WHERE s."id" = ${stepId} AND s."state" = 'pending'
       AND p."id" = ${planId} AND p."id" = s."planId" AND p."leaseId" = ${leaseId}`;
  return started === 1;
}

/** Which row state a step's outcome may replace: the one this applier started, or the one it found. */
type StepGuard = { state: "pending" } | { state: "running"; startedBy: string | null };

async function finishStep(
  stepId: string,
  guard: StepGuard,
  data: { state: "applied" | "failed" | "conflict" | "skipped"; message?: string | null; recordId?: number },
  operation?: string,
) {
  if (operation) metrics().planSteps.inc({ operation, state: data.state });
  await prisma.changePlanStep.updateMany({
    where: { id: stepId, ...guard },
    data: { state: data.state, message: data.message ?? null, ...(data.recordId !== undefined ? { recordId: data.recordId } : {}), finishedAt: new Date() },
  });
}

async function stop(planId: string, leaseId: string, status: PlanStatus, stopReason: string | null): Promise<void> {
  await prisma.changePlan.updateMany({
    where: { id: planId, leaseId },
    data: { status, stopReason, leaseId: null, leaseUntil: null, ...(status === PlanStatus.applied ? { appliedAt: new Date() } : {}) },
  });
}

async function release(planId: string, leaseId: string): Promise<void> {
  await prisma.changePlan.updateMany({ where: { id: planId, leaseId }, data: { leaseId: null, leaseUntil: null } });
}

/**
 * Keeps the claim alive while a step is under way (a write may wait out a rate-limit window):
 * a sign of life every third of the lease, so only a dead applier's claim expires.
 */
function keepAlive(planId: string, leaseId: string, leaseMs: number): () => void {
  const timer = setInterval(() => {
    prisma.$executeRaw`UPDATE "ChangePlan" SET "leaseUntil" = now() + ${`${leaseMs} milliseconds`}::interval WHERE "id" = ${planId} AND "leaseId" = ${leaseId}`.catch(
      (error: unknown) => log.warn({ event: "plans.lease_renewal_failed", planId, err: error }, "a plan's lease could not be renewed"),
    );
  }, leaseMs / 3);
  timer.unref();
  return () => clearInterval(timer);
}

export async function applyPlanSteps(planId: string, deps: ApplyDeps): Promise<ApplyOutcome> {
  const leaseMs = deps.leaseMs ?? plansEnv().PLAN_APPLY_LEASE_SECONDS * 1000;
  const leaseId = randomUUID();
  if (!(await claim(planId, leaseId, leaseMs))) return { status: "busy" };
  const stopKeepingAlive = keepAlive(planId, leaseId, leaseMs);
  let applied = 0;
  let finished = false;
  try {
    for await (const step of stepsToRun(planId)) {
      // Time is up, or this instance is stopping: between steps, never mid-write; the plan is released and due at once.
      if ((deps.deadline !== undefined && Date.now() >= deps.deadline) || deps.signal?.aborted) return { status: "paused", applied };
      const lease = await renew(planId, leaseId, leaseMs);
      if (lease === "lost") return { status: "lost-lease", applied };
      if (lease === "cancelled") {
        await prisma.changePlanStep.updateMany({ where: { planId, state: "pending" }, data: { state: "skipped", message: "Not applied: the plan was cancelled." } });
        await stop(planId, leaseId, PlanStatus.cancelled, `Cancelled before step ${step.position + 1}.`);
        finished = true;
        return { status: "cancelled", applied };
      }
      const outcome = await runStep(planId, step, leaseId, deps);
      if (outcome === "lost-lease") return { status: "lost-lease", applied };
      if (outcome.state === "applied" || outcome.state === "skipped") {
        applied += outcome.state === "applied" ? 1 : 0;
        continue;
      }
      await stop(planId, leaseId, outcome.state, outcome.message);
      finished = true;
      return { status: outcome.state, applied, message: outcome.message ?? "The step did not complete." };
    }
    await stop(planId, leaseId, PlanStatus.applied, null);
    finished = true;
    return { status: "applied", applied };
  } catch (error) {
    // Stopped from outside mid-write: released below, and the next applier checks the step first.
    if (deps.signal?.aborted) throw error;
    // Anything else would fail again on the next try: the plan stops, and a person sees why.
    log.error({ event: "plans.apply_failed_unexpectedly", planId, err: error }, "a plan stopped on an unexpected error");
    await stop(planId, leaseId, PlanStatus.failed, UNEXPECTED);
    finished = true;
    return { status: "failed", applied, message: UNEXPECTED };
  } finally {
    stopKeepingAlive();
    if (!finished) await release(planId, leaseId);
  }
}

const UNEXPECTED = "A step failed unexpectedly; see the server logs. Apply it again to resume.";

/**
 * The steps not applied or skipped yet, in order, STEP_BATCH rows at a time: a plan of 5,000 steps
 * read at once held every step's ciphertexts for the whole apply.
 */
async function* stepsToRun(planId: string): AsyncGenerator<StepRow> {
  for (let after = -1; ;) {
    const rows: StepRow[] = await prisma.changePlanStep.findMany({
      where: { planId, position: { gt: after }, state: { notIn: ["applied", "skipped"] } },
      orderBy: { position: "asc" },
      take: STEP_BATCH,
    });
    yield* rows;
    if (rows.length < STEP_BATCH) return;
    after = rows[rows.length - 1].position;
  }
}

type StepOutcome = { state: "applied" | "skipped" | "failed" | "conflict"; message: string | null } | "lost-lease";

async function runStep(planId: string, step: StepRow, leaseId: string, deps: ApplyDeps): Promise<StepOutcome> {
  const operation = step.operation as WriteOperation;
  const changes = openChanges(planId, step.id, step.changesCiphertext);
  const options = { signal: deps.signal, teamId: deps.teamId };
  const id = step.recordId ?? undefined;

  if (step.state === "running") {
    // Its applier stopped mid-write: look before anything is sent again.
    const since = (step.startedAt?.getTime() ?? Date.now()) - SENT_MARGIN_MS;
    let made: { applied: boolean; record: Webhook | WebhookGroup | null };
    try {
      made = await deps.writer.wasApplied(operation, { id, values: changes as WebhookChanges, since }, options);
    } catch (error) {
      if (error instanceof RecordGoneError) return finish(step, { state: "running", startedBy: step.startedBy }, { state: "failed", message: error.userMessage });
      throw error;
    }
    if (made.applied) return finish(step, { state: "running", startedBy: step.startedBy }, { state: "applied", message: null, recordId: made.record?.id });
    const reset = await prisma.changePlanStep.updateMany({
      where: { id: step.id, state: "running", startedBy: step.startedBy },
      data: { state: "pending", startedBy: null, startedAt: null },
    });
    if (reset.count !== 1) return "lost-lease";
  }

  if (!operation.endsWith(".create") && id !== undefined) {
    let item: unknown;
    try {
      ({ item } = await deps.client.getOne(
        resourceOf(operation),
        id,
        {},
        { signal: deps.signal, waitForRateLimit: true, budget: { kind: "write", teamId: deps.teamId } },
      ));
    } catch (error) {
      // The read before the write failed (the EMS unavailable, a refusal): the step fails as a failed write would.
      if (error instanceof EmsError && !deps.signal?.aborted) return finish(step, PENDING, { state: "failed", message: error.userMessage });
      throw error;
    }
    if (!item) {
      const gone = operation.endsWith(".delete");
      return finish(step, PENDING, { state: gone ? "skipped" : "failed", message: gone ? "Already deleted in the EMS." : "The record no longer exists in the EMS." });
    }
    const current = item as Webhook | WebhookGroup;
    // `updated_at` has whole seconds: an edit in the same second as the plan's read keeps it, so
    // the record is also compared with what the plan saw (its fields, header values included).
    const before = openBefore(planId, step.id, step.beforeCiphertext);
    const moved = step.expectedUpdatedAt && current.updated_at && current.updated_at !== step.expectedUpdatedAt;
    if (moved || (before && differsFrom(before, current))) {
      const message = `Changed in the EMS by ${current.updated_by ?? "someone"} at ${current.updated_at} UTC since this plan was made.`;
      return finish(step, PENDING, { state: "conflict", message });
    }
  }

  if (!(await startStep(step.id, planId, leaseId))) return "lost-lease";
  const mine: StepGuard = { state: "running", startedBy: leaseId };
  try {
    const recordId = await send(deps.writer, operation, id, changes, options);
    if (recordId !== null && operation.endsWith(".update")) await carryExpectation(planId, step.position, operation, recordId, deps);
    return finish(step, mine, { state: "applied", message: null, recordId: recordId ?? undefined });
  } catch (error) {
    if (error instanceof RecordGoneError && operation.endsWith(".delete")) return finish(step, mine, { state: "skipped", message: "Already deleted in the EMS." });
    // Stopped from outside mid-write (an abort, a function's time limit): whether it was made is
    // unknown, so the step stays "running" for the next applier to check before anything is sent.
    if (deps.signal?.aborted) throw error;
    if (error instanceof EmsError) {
      const message = withoutHeaderValues(error.userMessage, changes as WithHeaders, openBefore(planId, step.id, step.beforeCiphertext) as WithHeaders);
      return finish(step, mine, { state: "failed", message });
    }
    log.error({ event: "plans.step_failed_unexpectedly", planId, stepId: step.id, err: error }, "a plan step failed unexpectedly");
    await finishStep(step.id, mine, { state: "failed", message: "The step failed unexpectedly; see the server logs." }, step.operation);
    throw error;
  }
}

const PENDING: StepGuard = { state: "pending" };

async function finish(
  step: StepRow,
  guard: StepGuard,
  outcome: { state: "applied" | "skipped" | "failed" | "conflict"; message: string | null; recordId?: number },
): Promise<StepOutcome> {
  await finishStep(step.id, guard, outcome, step.operation);
  return { state: outcome.state, message: outcome.message };
}

/** Sends one write; returns the id of the record written (null after a delete). */
async function send(
  writer: EmsWriter,
  operation: WriteOperation,
  id: number | undefined,
  changes: StepChanges,
  options: { signal?: AbortSignal; teamId: string },
): Promise<number | null> {
  switch (operation) {
    case "webhooks.create":
      return (await writer.createWebhook(changes as NewWebhook, options)).record.id;
    case "webhooks.update":
      return (await writer.updateWebhook(id!, changes as WebhookChanges, options)).record.id;
    case "webhooks.delete":
      await writer.deleteWebhook(id!, options);
      return null;
    case "webhook-groups.create":
      return (await writer.createWebhookGroup(changes as NewWebhookGroup, options)).record.id;
    case "webhook-groups.update":
      return (await writer.updateWebhookGroup(id!, changes as WebhookGroupChanges, options)).record.id;
    case "webhook-groups.delete":
      await writer.deleteWebhookGroup(id!, options);
      return null;
  }
}

/**
 * A later step of the plan on the record this step just changed expects the record as this step
 * left it, not as it was when the plan was made (its own change is no conflict).
 */
async function carryExpectation(planId: string, position: number, operation: WriteOperation, recordId: number, deps: ApplyDeps): Promise<void> {
  const resource = resourceOf(operation);
  const later = await prisma.changePlanStep.findMany({
    where: { planId, recordId, position: { gt: position }, state: "pending", operation: { in: [`${resource}.update`, `${resource}.delete`] } },
    select: { id: true, beforeCiphertext: true },
  });
  if (later.length === 0) return;
  const { item } = await deps.client.getOne(resource, recordId, {}, { signal: deps.signal, waitForRateLimit: true, budget: { kind: "write", teamId: deps.teamId } });
  const record = item as Webhook | WebhookGroup | null;
  for (const step of later) {
    await prisma.changePlanStep.update({
      where: { id: step.id },
      data: {
        expectedUpdatedAt: record?.updated_at ?? null,
        // What it will find is the record as this step left it (and undo puts that back).
        beforeCiphertext: record && step.beforeCiphertext ? sealBefore(planId, step.id, without(record, ["webhooks"])) : step.beforeCiphertext,
      },
    });
  }
}

export { PlanNotApprovedError };

/**
 * The checks before a person applies a plan (issue 27 §2; who may and from which states:
 * lib/plans/lifecycle.ts "apply"): the role as the database has it now, a recent password, their own
 * credential for the plan's account; and an approved plan's steps still the ones approved. Another
 * team's plan is "not found". Returns the applier's credential.
 */
async function checkApplier(actor: Actor, planId: string) {
  const plan = await planFor("apply", actor, planId, { approvedDigest: true });
  // planFor refused a person without a credential for the plan's account; read again for its writer.
  const { credential } = await credentialForPlan(actor, plan.accountKey);
  if (!credential) throw new NoCredentialError();
  if (plan.status === PlanStatus.approved && plan.approvedDigest !== (await planDigest(planId))) {
    throw new PlanNotApprovedError("This plan changed after it was approved: it needs approval again.");
  }
  return credential;
}

/**
 * Marks an approved plan as applied by this person and returns; the steps run in the background
 * (lib/plans/run.ts: the job engine, or the request's own time on Vercel). A plan that stopped
 * (failed, conflict) may be resumed: its remaining steps run again after a new check.
 */
export async function startApply(actor: Actor, planId: string, context: RequestContext = {}): Promise<void> {
  await checkApplier(actor, planId);
  // A real transition only: an approved plan nobody started yet, or one that stopped. A second Apply
  // (a double click, seven at once) finds it started and is told so; it audits nothing.
  const started = await prisma.changePlan.updateMany({
    where: { id: planId, teamId: actor.teamId, status: { in: [...PLAN_TRANSITIONS.apply.from] }, OR: [{ status: { not: PlanStatus.approved } }, { appliedById: null }] },
    data: { status: PlanStatus.approved, appliedById: actor.userId, stopReason: null, cancelRequestedAt: null },
  });
  if (started.count !== 1) throw new PlanNotApprovedError("This plan is being applied already, or it is no longer approved.");
  // A conflict or failure stopped these steps: they are tried again (each reads its record first).
  await prisma.changePlanStep.updateMany({
    where: { planId, state: { in: ["failed", "conflict"] } },
    data: { state: "pending", message: null, startedBy: null, startedAt: null, finishedAt: null },
  });
  const plan = await prisma.changePlan.findUniqueOrThrow({ where: { id: planId }, select: { title: true, _count: { select: { steps: true } } } });
  await auditByActor(actor, { action: "plan.apply_started", target: planId, ip: context.ip, metadata: { title: plan.title, operations: plan._count.steps } });
}

/**
 * Applies the portal's undo of a plan applied in the last FAST_UNDO_HOURS without a second approval
 * (lib/plans/lifecycle.ts "applyUndo": owners and admins, a recent password, their credential for
 * the plan's account). The undo is approved by this person, of its content as it is now (the digest,
 * as any approval), and started in the same conditional UPDATE, from the states the table starts the
 * move from: two people pressing at once start it once. Audited as an undo without review, and every
 * owner is told (lib/plans/announce.ts). The steps run as any started plan's (lib/plans/run.ts).
 */
export async function applyUndoNow(actor: Actor, planId: string, context: RequestContext = {}): Promise<void> {
  const plan = await planFor("applyUndo", actor, planId, { title: true, revertsPlanId: true, _count: { select: { steps: true } } });
  const digest = await planDigest(planId);
  const now = new Date();
  const started = await prisma.changePlan.updateMany({
    where: { id: planId, teamId: actor.teamId, status: { in: [...PLAN_TRANSITIONS.applyUndo.from] }, revertsPlanId: plan.revertsPlanId },
    data: {
      status: PlanStatus.approved,
      submittedAt: plan.submittedAt ?? now,
      approvedById: actor.userId,
      approvedByEmail: actor.email,
      approvedAt: now,
      approvedDigest: digest,
      appliedById: actor.userId,
      stopReason: null,
      cancelRequestedAt: null,
    },
  });
  if (started.count !== 1) throw new PlanNotApprovedError("This undo is being applied already, or it is no longer waiting.");
  await auditByActor(actor, {
    action: "plan.undo_applied_without_review",
    target: planId,
    ip: context.ip,
    metadata: { title: plan.title, operations: plan._count.steps, reverts: plan.revertsPlanId },
  });
  await announcePlanMove("undo_without_review", planId, actor);
}

/**
 * Applies a plan as the signed-in person, now, in this process: the checks of startApply, then the
 * steps (lib/plans/run.ts runs them the same way from a job).
 */
export async function applyPlan(actor: Actor, planId: string, options: { signal?: AbortSignal } = {}): Promise<ApplyOutcome> {
  const credential = await checkApplier(actor, planId);
  await prisma.changePlan.updateMany({ where: { id: planId, status: PlanStatus.approved }, data: { appliedById: actor.userId } });
  return applyPlanSteps(planId, { writer: getEmsWriter(credential), client: getEmsClient(credential), teamId: actor.teamId, signal: options.signal });
}
