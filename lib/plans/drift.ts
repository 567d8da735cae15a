import "server-only";
import { notifyDrift } from "@/lib/inbox/feed";
import type { EmsHeader } from "@/lib/ems";
import { prisma } from "@/lib/db/prisma";
import { fingerprintSecret } from "@/lib/env";
import { log } from "@/lib/log";
import { headerHasher, historyHeaderPairs, historyValue, stableJson, type HeaderHasher } from "@/lib/history/records";
import { PlanStatus } from "./lifecycle";
import { resourceOf, verbOf } from "./operations";
import { openChanges } from "./steps";
import { driftSentence } from "./drift-words";

/**
 * Drift from applied plans (issue 37 §3): after a history sync, the records it saw change are
 * compared with what the team's applied plans set on them. A field a plan set that now holds another
 * value, or a record a plan changed that was deleted, is a drift finding (`PlanDrift`), one per plan,
 * record and field: seen again, the same row is updated. A field back at the plan's value resolves it.
 *
 * History cannot import plans (docs/ARCHITECTURE.md, layers), so this runs after a sync, called by
 * whoever ran it: the history-sync job (lib/jobs), "Sync now" (lib/actions/history) and a plan's own
 * apply (lib/plans/run.ts). It costs little per sync: only plans changed within DRIFT_WINDOW_DAYS,
 * only the records the sync stored a change for (read in batches), only those records' applied
 * steps decrypted, never a before-state.
 */

/** Plans whose steps were applied longer ago than this are no longer watched for drift. */
export const DRIFT_WINDOW_DAYS = 30;
/** Change rows of a sync read (and their records' steps decrypted) at a time. */
const CHANGE_BATCH = 500;

export type DriftKind = "webhook" | "group";

/** A drift finding that is new (or open again), for whoever tells people of it (the inbox, issue 37 §4). */
export interface NewDriftFinding {
  id: string;
  teamId: string;
  planId: string;
  planTitle: string;
  /** Who applied the plan: "drift on what you applied" is theirs to hear of. */
  appliedById: string | null;
  kind: DriftKind;
  recordId: number;
  recordName: string | null;
  /** The field the plan set; "" when the record was deleted. */
  field: string;
  changedBy: string | null;
  changedAt: Date | null;
}

interface WatchedPlan {
  id: string;
  title: string;
  appliedById: string | null;
}

interface AppliedStep {
  id: string;
  planId: string;
  operation: string;
  recordId: number;
  changesCiphertext: string;
}

interface SeenChange {
  kind: string;
  recordId: number;
  recordName: string | null;
  change: string;
  field: string | null;
  after: unknown;
  changedBy: string | null;
  changedAt: Date | null;
}

const kindOfOperation = (operation: string): DriftKind => (resourceOf(operation) === "webhook-groups" ? "group" : "webhook");

/**
 * A value a plan sent, as change history stores the field: lists whose order means nothing sorted,
 * header lists as their names with a keyed hash of each value (the same hasher as the tracker's, so
 * equal values compare equal without a value ever being stored or shown).
 */
export function asHistoryValue(field: string, value: unknown, hash: HeaderHasher): unknown {
  if (field === "headers") return historyHeaderPairs((value as EmsHeader[]) ?? []).map(([key, headerValue]) => ({ key, hash: hash(headerValue) }));
  return historyValue(field, value);
}

/** What the sync saw differs from what the plan set. */
export function differsFromPlan(field: string, planValue: unknown, seen: unknown, hash: HeaderHasher): boolean {
  return stableJson(asHistoryValue(field, planValue, hash)) !== stableJson(seen ?? null);
}

/**
 * Compares the records one finished sync saw change with the applied plans of its team and account,
 * stores what drifted and resolves what came back. Returns the findings that are new or open again:
 * the one place the inbox (issue 37 §4) is told of "drift on what you applied".
 *
 * Safe to run twice for one sync, or for two syncs at once: a finding is one row per plan, record and
 * field (a unique index), written by an upsert.
 */
export async function findDriftAfterSync(syncId: string): Promise<NewDriftFinding[]> {
  const sync = await prisma.setupSync.findUnique({
    where: { id: syncId },
    select: { status: true, startedAt: true, tracker: { select: { id: true, teamId: true, accountKey: true } } },
  });
  if (!sync || sync.status !== "ok") return [];
  const { teamId, accountKey, id: trackerId } = sync.tracker;
  const since = new Date(Date.now() - DRIFT_WINDOW_DAYS * 86_400_000);
  // A plan whose steps were applied within the window was itself updated within it: a cheap first
  // look (the team's plans by status) before any change row is read.
  const plans: WatchedPlan[] = await prisma.changePlan.findMany({
    where: {
      teamId,
      accountKey,
      updatedAt: { gte: since },
      status: { in: [PlanStatus.applied, PlanStatus.failed, PlanStatus.conflict, PlanStatus.applying, PlanStatus.cancelled] },
    },
    select: { id: true, title: true, appliedById: true },
  });
  if (plans.length === 0) return [];
  const planById = new Map(plans.map((plan) => [plan.id, plan]));
  const hash = headerHasher(fingerprintSecret(), trackerId);

  const found: NewDriftFinding[] = [];
  for (let cursor: string | undefined; ;) {
    const rows = await prisma.setupChange.findMany({
      where: { syncId, kind: { in: ["webhook", "group"] }, change: { in: ["changed", "removed"] }, ...(cursor ? { id: { gt: cursor } } : {}) },
      orderBy: { id: "asc" },
      take: CHANGE_BATCH,
      select: { id: true, kind: true, recordId: true, recordName: true, change: true, field: true, after: true, changedBy: true, changedAt: true },
    });
    if (rows.length === 0) break;
    cursor = rows[rows.length - 1].id;
    const steps = await appliedStepsOf(
      [...planById.keys()],
      rows.map((row) => row.recordId),
      since,
      sync.startedAt,
    );
    found.push(...(await compareBatch({ teamId, syncId, seenAt: sync.startedAt, hash, planById }, rows, steps)));
    if (rows.length < CHANGE_BATCH) break;
  }
  return found;
}

/**
 * The applied steps of these plans on these records, finished within the window and before the
 * sync started (a sync that began before a step was written may have read the record before it),
 * latest first: the latest write of a field is the one a record is held to.
 */
async function appliedStepsOf(planIds: string[], recordIds: number[], since: Date, before: Date): Promise<Map<string, AppliedStep[]>> {
  const rows = await prisma.$queryRaw<AppliedStep[]>`
    SELECT "id", "planId", "operation", "recordId", "changesCiphertext"
      FROM "ChangePlanStep"
     WHERE "recordId" = ANY(${[...new Set(recordIds)]}::int[])
       AND "planId" = ANY(${planIds}::text[])
       AND "state" = 'applied'
       AND "finishedAt" >= ${since} AND "finishedAt" < ${before}
     ORDER BY "finishedAt" DESC, "position" DESC`;
  const byRecord = new Map<string, AppliedStep[]>();
  for (const row of rows) {
    const key = `${kindOfOperation(row.operation)}:${row.recordId}`;
    byRecord.set(key, [...(byRecord.get(key) ?? []), row]);
  }
  return byRecord;
}

interface BatchContext {
  teamId: string;
  syncId: string;
  seenAt: Date;
  hash: HeaderHasher;
  planById: ReadonlyMap<string, WatchedPlan>;
}

interface Verdict {
  step: AppliedStep;
  change: SeenChange;
  field: string;
}

async function compareBatch(context: BatchContext, changes: readonly SeenChange[], steps: Map<string, AppliedStep[]>): Promise<NewDriftFinding[]> {
  const opened = new Map<string, Record<string, unknown>>();
  // Decrypted once per step, and only for steps of a record this sync saw change.
  const changesOf = (step: AppliedStep) => {
    let changes = opened.get(step.id);
    if (!changes) {
      changes = openChanges(step.planId, step.id, step.changesCiphertext) as Record<string, unknown>;
      opened.set(step.id, changes);
    }
    return changes;
  };
  const drifted: Verdict[] = [];
  const heldAgain: { kind: string; recordId: number; field: string }[] = [];
  for (const change of changes) {
    const recordSteps = steps.get(`${change.kind}:${change.recordId}`);
    if (!recordSteps) continue;
    if (change.change === "removed") {
      // Deleted in the EMS: drift from the latest plan that left it in place (not one that deleted it).
      const latest = recordSteps[0];
      if (verbOf(latest.operation) !== "delete") drifted.push({ step: latest, change, field: "" });
      continue;
    }
    const field = change.field;
    if (!field) continue;
    for (const step of recordSteps) {
      // A record the plan deleted that is back under the same id is not the plan's record.
      if (verbOf(step.operation) === "delete") break;
      const value = changesOf(step)[field];
      if (value === undefined) continue;
      if (differsFromPlan(field, value, change.after, context.hash)) drifted.push({ step, change, field });
      else heldAgain.push({ kind: change.kind, recordId: change.recordId, field });
      break;
    }
  }
  await resolveHeldAgain(context.teamId, heldAgain);
  const found: NewDriftFinding[] = [];
  for (const verdict of drifted) {
    const finding = await recordDrift(context, verdict);
    if (finding) found.push(finding);
  }
  return found;
}

/** Fields back at the value the latest plan set: every finding on them is over. */
async function resolveHeldAgain(teamId: string, held: readonly { kind: string; recordId: number; field: string }[]): Promise<void> {
  if (held.length === 0) return;
  await prisma.$executeRaw`
    UPDATE "PlanDrift" AS d SET "status" = 'resolved', "updatedAt" = now()
      FROM unnest(${held.map((each) => each.kind)}::text[], ${held.map((each) => each.recordId)}::int[], ${held.map((each) => each.field)}::text[])
        AS h("kind", "recordId", "field")
     WHERE d."teamId" = ${teamId} AND d."kind" = h."kind" AND d."recordId" = h."recordId" AND d."field" = h."field"
       AND d."status" IN ('open', 'accepted')`;
}

/**
 * Stores one drift: a new row, or the existing one brought up to date (an accepted one stays as it
 * was accepted; a resolved one opens again). Findings of older plans on the same field are
 * superseded by this plan's. Returns the finding when it is new or open again.
 */
async function recordDrift(context: BatchContext, { step, change, field }: Verdict): Promise<NewDriftFinding | null> {
  const plan = context.planById.get(step.planId)!;
  const kind = change.kind as DriftKind;
  return prisma.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ id: string; previous: string | null }[]>`
      WITH old AS (
        SELECT "status" FROM "PlanDrift" WHERE "planId" = ${plan.id} AND "kind" = ${kind} AND "recordId" = ${change.recordId} AND "field" = ${field}
      )
      INSERT INTO "PlanDrift" ("id", "teamId", "planId", "stepId", "kind", "recordId", "recordName", "field", "changedBy", "changedAt", "syncId", "seenAt", "updatedAt")
      VALUES (gen_random_uuid()::text, ${context.teamId}, ${plan.id}, ${step.id}, ${kind}, ${change.recordId}, ${change.recordName}, ${field},
              ${change.changedBy}, ${change.changedAt}, ${context.syncId}, ${context.seenAt}, now())
      ON CONFLICT ("planId", "kind", "recordId", "field") DO UPDATE
         SET "stepId" = EXCLUDED."stepId", "recordName" = COALESCE(EXCLUDED."recordName", "PlanDrift"."recordName"),
             "changedBy" = EXCLUDED."changedBy", "changedAt" = EXCLUDED."changedAt", "syncId" = EXCLUDED."syncId",
             "seenAt" = EXCLUDED."seenAt", "status" = 'open', "updatedAt" = now()
       WHERE "PlanDrift"."status" <> 'accepted'
      RETURNING "id", (SELECT "status" FROM old) AS "previous"`;
    if (field !== "") {
      await tx.planDrift.updateMany({
        where: { teamId: context.teamId, kind, recordId: change.recordId, field, planId: { not: plan.id }, status: "open" },
        data: { status: "resolved" },
      });
    }
    const row = rows[0];
    if (!row || (row.previous !== null && row.previous !== "resolved")) return null;
    return {
      id: row.id,
      teamId: context.teamId,
      planId: plan.id,
      planTitle: plan.title,
      appliedById: plan.appliedById,
      kind,
      recordId: change.recordId,
      recordName: change.recordName,
      field,
      changedBy: change.changedBy,
      changedAt: change.changedAt,
    };
  });
}

/**
 * Drift after the syncs that just finished, each in turn: THE call site of every sync runner (the
 * history-sync job, "Sync now", a plan's own apply). A sync whose check fails is logged and the rest
 * go on: the sync itself succeeded, and the next change of that record is compared again.
 *
 * Issue 37 §4 (the inbox, built apart): "drift on what you applied" is told from here, with the
 * findings this returns (each names the plan and who applied it).
 */
export async function findDriftAfterSyncs(syncIds: readonly string[]): Promise<NewDriftFinding[]> {
  const found: NewDriftFinding[] = [];
  for (const syncId of syncIds) {
    try {
      found.push(...(await findDriftAfterSync(syncId)));
    } catch (error) {
      log.error({ event: "plans.drift_check_failed", syncId, err: error }, "drift from applied plans could not be checked after a sync");
    }
  }
  for (const finding of found) await tellOfDrift(finding);
  return found;
}

/**
 * "Drift on what you applied" in the inbox of the plan's applier and author (lib/inbox/feed.ts
 * `notifyDrift`): once per finding and opening (a finding that resolved and drifted again is news
 * again; the same one seen by a second sync is not). A failure to tell is logged: the finding stays.
 */
async function tellOfDrift(finding: NewDriftFinding): Promise<void> {
  try {
    await notifyDrift({
      teamId: finding.teamId,
      planId: finding.planId,
      findingKey: `${finding.id}:${finding.changedAt?.toISOString() ?? "unknown"}`,
      detail: driftSentence(finding),
    });
  } catch (error) {
    log.error({ event: "inbox.drift_notice_failed", planId: finding.planId, err: error }, "a drift finding could not be put in the inbox");
  }
}
