import "server-only";
import type { Actor } from "@/lib/access/actor";
import { requireManager, type RequestContext } from "@/lib/access/guards";
import { auditByActor } from "@/lib/audit/log";
import { prisma } from "@/lib/db/prisma";
import type { EmsHeader } from "@/lib/ems";
import { NotFoundError, SafeError } from "@/lib/errors";
import { fieldLabel } from "./diff";
import { draftPlan } from "./draft";
import type { PlanEdit } from "./edits";
import { driftRecordWords, driftSentence } from "./drift-words";
import { openChanges } from "./steps";

/**
 * The team's drift findings (lib/plans/drift.ts finds them): read by any member (Health, a plan's
 * page), accepted by an owner or admin, re-applied as a new plan by anyone who may draft one.
 * A finding of another team is "not found", as a missing one is.
 */

export const DRIFT_NOT_FOUND = "That drift finding no longer exists, or it is not in your team.";
/** Findings a page lists: the newest, open first. A team with more sees how many more. */
export const DRIFT_SHOWN = 50;

export type DriftStatus = "open" | "accepted" | "resolved";

export interface DriftFindingView {
  id: string;
  planId: string;
  planTitle: string;
  kind: string;
  recordId: number;
  recordName: string | null;
  field: string;
  sentence: string;
  changedBy: string | null;
  changedAt: Date | null;
  seenAt: Date;
  status: DriftStatus;
  acceptedByEmail: string | null;
  acceptedAt: Date | null;
  reapplyPlanId: string | null;
}

export interface DriftList {
  findings: DriftFindingView[];
  open: number;
  accepted: number;
}

/**
 * The team's open and accepted findings, newest first (resolved ones are history): all of them, or
 * one plan's. Any member: they say what happened to the team's own plans, no value in them.
 */
export async function listDrift(actor: Pick<Actor, "teamId">, options: { planId?: string } = {}): Promise<DriftList> {
  const where = { teamId: actor.teamId, ...(options.planId ? { planId: options.planId } : {}) };
  const [rows, counts] = await Promise.all([
    prisma.planDrift.findMany({
      where: { ...where, status: { in: ["open", "accepted"] } },
      // "open" sorts before "accepted" descending: what needs a decision comes first.
      orderBy: [{ status: "desc" }, { seenAt: "desc" }, { id: "asc" }],
      take: DRIFT_SHOWN,
      include: { plan: { select: { title: true } } },
    }),
    prisma.planDrift.groupBy({ by: ["status"], where: { ...where, status: { in: ["open", "accepted"] } }, _count: { _all: true } }),
  ]);
  const count = (status: string) => counts.find((each) => each.status === status)?._count._all ?? 0;
  return {
    open: count("open"),
    accepted: count("accepted"),
    findings: rows.map((row) => ({
      id: row.id,
      planId: row.planId,
      planTitle: row.plan.title,
      kind: row.kind,
      recordId: row.recordId,
      recordName: row.recordName,
      field: row.field,
      sentence: driftSentence({ ...row, planTitle: row.plan.title }),
      changedBy: row.changedBy,
      changedAt: row.changedAt,
      seenAt: row.seenAt,
      status: row.status as DriftStatus,
      acceptedByEmail: row.acceptedByEmail,
      acceptedAt: row.acceptedAt,
      reapplyPlanId: row.reapplyPlanId,
    })),
  };
}

async function findingOfTeam(actor: Pick<Actor, "teamId">, findingId: string) {
  const finding = await prisma.planDrift.findFirst({ where: { id: findingId, teamId: actor.teamId }, include: { plan: { select: { title: true, accountKey: true } } } });
  if (!finding) throw new NotFoundError(DRIFT_NOT_FOUND);
  return finding;
}

/**
 * Owners and admins (the role as the database has it now): the team accepts the record as it is in
 * the EMS. The finding is muted with who accepted it and when, and audited; it opens again only
 * after the record first comes back to the plan's value and then leaves it again.
 */
export async function acceptDrift(actor: Actor, findingId: string, context: RequestContext = {}): Promise<void> {
  await prisma.$transaction(async (tx) => {
    await requireManager(tx, actor);
    const finding = await tx.planDrift.findFirst({ where: { id: findingId, teamId: actor.teamId }, include: { plan: { select: { title: true } } } });
    if (!finding) throw new NotFoundError(DRIFT_NOT_FOUND);
    // Only an open finding: two people accepting at once, the second is told, not audited twice.
    const accepted = await tx.planDrift.updateMany({
      where: { id: finding.id, status: "open" },
      data: { status: "accepted", acceptedById: actor.userId, acceptedByEmail: actor.email, acceptedAt: new Date() },
    });
    if (accepted.count !== 1) {
      throw new SafeError(
        finding.status === "accepted" ? "That drift was already accepted." : "That drift is over: the record holds the plan's value again.",
        "drift_not_open",
      );
    }
    await auditByActor(
      actor,
      {
        action: "plan.drift_accepted",
        target: finding.planId,
        ip: context.ip ?? null,
        metadata: {
          title: finding.plan.title,
          kind: finding.kind,
          recordId: finding.recordId,
          recordName: finding.recordName,
          field: finding.field || null,
          fieldLabel: finding.field ? fieldLabel(finding.field) : null,
        },
      },
      tx,
    );
  });
}

/**
 * Re-apply: drafts a new plan (the normal drafting engine, reviewed like any plan) that sets again
 * what the plan set on the finding's record, for every field of it that drifted and is not accepted
 * away. Only those steps' changes are decrypted; header lists go back whole, with the values the
 * plan sent (the server's own, never typed). Anyone who may draft (lib/plans/draft.ts: a member with
 * credentials for the plan's account).
 */
export async function draftReapply(actor: Actor, findingId: string, context: RequestContext = {}): Promise<{ planId: string }> {
  const finding = await findingOfTeam(actor, findingId);
  const record = driftRecordWords(finding.kind, finding.recordId, finding.recordName);
  if (finding.status === "resolved") throw new SafeError("That drift is over: the record holds the plan's value again.", "drift_not_open");
  if (finding.field === "") {
    throw new SafeError(
      `${record[0].toUpperCase()}${record.slice(1)} was deleted in the EMS: Re-apply sets fields again and cannot bring a record back. Create it again, or accept the drift.`,
      "drift_deleted",
    );
  }
  const same = await prisma.planDrift.findMany({
    where: { planId: finding.planId, kind: finding.kind, recordId: finding.recordId, field: { not: "" }, OR: [{ status: "open" }, { id: finding.id }] },
    select: { id: true, field: true, stepId: true },
  });
  const steps = await prisma.changePlanStep.findMany({
    where: { id: { in: [...new Set(same.map((each) => each.stepId))] }, planId: finding.planId },
    select: { id: true, changesCiphertext: true },
  });
  const changesOf = new Map(steps.map((step) => [step.id, openChanges(finding.planId, step.id, step.changesCiphertext) as Record<string, unknown>]));
  const values: Record<string, unknown> = {};
  for (const each of same) {
    const value = changesOf.get(each.stepId)?.[each.field];
    if (value === undefined) continue;
    if (each.field === "headers") values.exactHeaders = (value as EmsHeader[]).map((header) => ({ key: header.key, value: header.value }));
    else values[each.field] = value;
  }
  if (Object.keys(values).length === 0) throw new SafeError("The plan's steps for this record are gone: nothing to re-apply.", "drift_steps_gone");
  const edit: PlanEdit =
    finding.kind === "group"
      ? { kind: "group.update", id: finding.recordId, values: values as Extract<PlanEdit, { kind: "group.update" }>["values"] }
      : { kind: "webhook.update", id: finding.recordId, values: values as Extract<PlanEdit, { kind: "webhook.update" }>["values"] };
  const drafted = await draftPlan(
    actor,
    { title: `Re-apply “${finding.plan.title}” on ${record}`, edits: [edit], forAccount: finding.plan.accountKey },
    { ip: context.ip ?? undefined },
  );
  await prisma.planDrift.updateMany({ where: { id: { in: same.map((each) => each.id) } }, data: { reapplyPlanId: drafted.planId } });
  return { planId: drafted.planId };
}
