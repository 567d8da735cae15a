import "server-only";
import { admitted, BusyError } from "@/lib/admission";
import { audit } from "@/lib/audit/log";
import { prisma, type TransactionClient } from "@/lib/db/prisma";
import { SafeError } from "@/lib/errors";
import { applyMutes, findingDigest, listMutes } from "@/lib/health/mutes";
import { checksWithPolicy, isDraftable, type DraftableCheck } from "@/lib/health/policies";
import { runHealthChecks, type Finding, type RuleId } from "@/lib/health/rules";
import type { SyncedSetup } from "@/lib/history/sync";
import { log } from "@/lib/log";
import { getNewEventWebhooks, getRequiredTriggers, type NewEventWebhooks } from "@/lib/setup/requirements";
import type { SetupData } from "@/lib/setup/setup-data";
import { plural } from "@/lib/text/plural";
import { announcePlanMove } from "./announce";
import { assertRoomForPlan, lockTeamPlans } from "./caps";
import { fitTitle, PlanTooLargeError, setupRecords } from "./draft";
import type { PlanEdit } from "./edits";
import { operationsFor } from "./edits";
import { fixFor, type DraftedFix } from "./fixes";
import { MAX_PLAN_OPERATIONS } from "./limits";
import { PLAN_TRANSITIONS, PlanStatus } from "./lifecycle";
import type { DraftOperation } from "./operations";
import { insertPlan, stepOf } from "./store";

/**
 * Checks that draft their own fixes (issue 37 §2). After each sync of a tracked account, for every
 * check whose team policy is "draft the fix" (lib/health/policies.ts) and that has findings no
 * drafted plan of that check holds yet, the portal drafts ONE plan of the check's fix for all of its
 * findings (lib/plans/fixes.ts, the same fix as Health's "Fix…"), with no author ("EMS Portal on
 * behalf of the team"), and sends it for review (lifecycle.ts "submit"): a person approves and
 * applies it, or not. It never applies anything.
 *
 * - Its own older drafted plan of the check, still waiting (draft or submitted), is cancelled in the
 *   same transaction: the new one holds its findings too. One approved or being applied is left as
 *   it is, and its findings are not drafted again.
 * - A plan a person drafted (an author) is never read nor touched here.
 * - A finding of a drafted fix the team rejected or cancelled is not drafted again (a person said
 *   no); a mute hides a finding from the drafts as it does from Health.
 * - Two instances syncing the same account at once draft once: the check's drafting is serialised
 *   by a transaction-scoped lock per (team, account, check), taken before the open plans are read.
 */

/** The portal itself, moving its own drafts: nobody to leave out of the inbox. */
const PORTAL = { userId: null, email: null };

/** Why a drafted fix was cancelled by a newer one: a cancel for any other reason is a person's "no". */
export const SUPERSEDED_REASON = "Replaced by a newer drafted fix of the same check.";

/** The statuses whose findings are not drafted again: waiting, under way, or turned down by a person. */
const HOLDING: PlanStatus[] = [PlanStatus.draft, PlanStatus.submitted, PlanStatus.approved, PlanStatus.applying, PlanStatus.rejected, PlanStatus.cancelled];
/** The statuses a newer drafted fix replaces (nothing approved or sent yet). */
const REPLACEABLE: readonly PlanStatus[] = [PlanStatus.draft, PlanStatus.submitted];

/**
 * The required triggers as a policy: a live event missing one (Health's check of that name) gets a
 * plan that adds it to the webhooks the team names for new events (lib/setup/requirements.ts).
 */
export const NEW_EVENT_CHECK = "required-trigger-missing" satisfies RuleId;
type PolicyCheck = DraftableCheck | typeof NEW_EVENT_CHECK;

export interface PolicyDraft {
  check: PolicyCheck;
  planId: string;
  findings: number;
  operations: number;
  superseded: string[];
}

/**
 * Drafts the fixes of the team's "draft" checks for a setup a sync just stored (history calls it
 * through `afterSync`, lib/jobs/history-sync-job.ts and "Sync now"). Up to 5,000 operations a check
 * and the records they read: heavy work, admitted per team (lib/admission.ts) like a person's bulk
 * draft. A check whose draft is refused (the team's cap of waiting plans, a plan too large, this
 * instance busy) is logged and tried again after the next sync: its findings are still new then.
 */
export async function draftPolicyFixes(synced: SyncedSetup): Promise<PolicyDraft[]> {
  try {
    return await admitted("drafting", `policy:${synced.teamId}`, () => draftPolicyFixesNow(synced));
  } catch (error) {
    if (!(error instanceof BusyError)) throw error;
    log.warn({ event: "plans.policy_draft_busy", teamId: synced.teamId }, "drafted fixes wait for the next sync: this instance is busy");
    return [];
  }
}

/** `draftPolicyFixes` without admission: each instance admits its own work, and a race test plays several in one process. */
export async function draftPolicyFixesNow(synced: SyncedSetup): Promise<PolicyDraft[]> {
  const team = { teamId: synced.teamId };
  const [policies, newEvents, requiredTriggers] = await Promise.all([checksWithPolicy(synced.teamId, "draft"), getNewEventWebhooks(team), getRequiredTriggers(team)]);
  const builders = new Map<PolicyCheck, (email: string) => FixBuilder>();
  for (const { ruleId } of policies) if (isDraftable(ruleId)) builders.set(ruleId, (email) => (findings) => fixOperations(findings, synced.data, email));
  if (requiredTriggers.length > 0 && (newEvents.webhookIds.length > 0 || newEvents.groupId !== null)) {
    builders.set(NEW_EVENT_CHECK, () => (findings) => newEventOperations(findings, synced.data, newEvents));
  }
  if (builders.size === 0) return [];
  const [mutes, runner] = await Promise.all([listMutes(team), prisma.user.findUnique({ where: { id: synced.runnerId }, select: { email: true } })]);
  if (!runner) return [];
  const findings = applyMutes(runHealthChecks(synced.data, { now: synced.seenAt, requiredTriggers }), mutes).active;
  const drafted: PolicyDraft[] = [];
  for (const [check, builder] of builders) {
    const ofCheck = findings.filter((finding) => finding.ruleId === check);
    if (ofCheck.length === 0) continue;
    try {
      const plan = await draftCheckFix(synced, check, ofCheck, builder(runner.email));
      if (plan) {
        drafted.push(plan);
        // Reviewers hear of it in their inbox (a plan without an author: "a drafted fix"); the older
        // draft it replaced waits for nobody any more (lib/plans/announce.ts).
        for (const superseded of plan.superseded) await announcePlanMove("cancelled", superseded, PORTAL);
        await announcePlanMove("submitted", plan.planId, PORTAL);
      }
    } catch (error) {
      // The team's cap or a plan too large: said in words, tried again after the next sync.
      if (!(error instanceof SafeError)) throw error;
      log.warn({ event: "plans.policy_draft_refused", teamId: synced.teamId, check, reason: error.message }, "a drafted fix was not made; the next sync tries again");
    }
  }
  return drafted;
}

/** The lock that serialises one check's drafting for one account of a team (see the module's comment). */
async function lockCheckDrafts(tx: TransactionClient, teamId: string, accountKey: string, check: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`policy-fix:${teamId}:${accountKey}:${check}`}, 0))`;
}

/** Storing up to 5,000 steps takes longer than the default 5 s transaction on a busy instance. */
const STORE_TRANSACTION = { maxWait: 10_000, timeout: 60_000 };

/** What a check's plan does about its findings: the operations against the synced setup, and the plan's title. */
type FixBuilder = (findings: readonly Finding[]) => { operations: DraftOperation[]; title: string };

async function draftCheckFix(synced: SyncedSetup, check: PolicyCheck, findings: readonly Finding[], build: FixBuilder): Promise<PolicyDraft | null> {
  const byDigest = new Map(findings.map((finding) => [findingDigest(finding.key), finding]));
  return prisma.$transaction(async (tx) => {
    await lockCheckDrafts(tx, synced.teamId, synced.accountKey, check);
    const earlier = await tx.changePlan.findMany({
      where: { teamId: synced.teamId, accountKey: synced.accountKey, fixCheck: check, authorId: null, status: { in: HOLDING } },
      select: { id: true, status: true, stopReason: true, fixFindings: true },
    });
    // A plan this module cancelled for a newer one holds nothing: the newer one does.
    const holding = earlier.filter((plan) => !(plan.status === PlanStatus.cancelled && plan.stopReason === SUPERSEDED_REASON));
    const held = new Set(holding.flatMap((plan) => plan.fixFindings));
    if (![...byDigest.keys()].some((digest) => !held.has(digest))) return null;

    // The new plan: every finding not held by an approved or applying plan, nor turned down.
    const elsewhere = new Set(holding.filter((plan) => !REPLACEABLE.includes(plan.status)).flatMap((plan) => plan.fixFindings));
    const fixed = [...byDigest].filter(([digest]) => !elsewhere.has(digest));
    const { operations, title } = build(fixed.map(([, finding]) => finding));
    if (operations.length === 0) return null;
    if (operations.length > MAX_PLAN_OPERATIONS) throw new PlanTooLargeError(operations.length);

    const replaced = holding.filter((plan) => REPLACEABLE.includes(plan.status)).map((plan) => plan.id);
    await lockTeamPlans(tx, synced.teamId);
    // A replacement takes its older draft's place; a first draft counts against the team's cap (nobody is its author).
    if (replaced.length === 0) await assertRoomForPlan(tx, { userId: "", teamId: synced.teamId });
    if (replaced.length > 0) {
      const cancelled = await tx.changePlan.updateMany({
        where: { id: { in: replaced }, authorId: null, fixCheck: check, status: { in: [...REPLACEABLE] } },
        data: { status: PlanStatus.cancelled, stopReason: SUPERSEDED_REASON },
      });
      // A reviewer approved (or cancelled) the older draft since it was read: it holds its findings
      // now, and the new plan would fix them twice. Nothing is stored; the next sync drafts afresh.
      if (cancelled.count !== replaced.length) throw new SafeError("A drafted fix of this check moved on while a newer one was drafted.", "policy_draft_moved");
    }
    const planId = await insertPlan({ teamId: synced.teamId, accountKey: synced.accountKey, title, authorId: null, steps: operations.map(stepOf) }, tx);
    // Sent for review at once, as its author would: lifecycle.ts "submit", from draft.
    await tx.changePlan.update({
      where: { id: planId },
      data: { status: PLAN_TRANSITIONS.submit.to, submittedAt: new Date(), fixCheck: check, fixFindings: fixed.map(([digest]) => digest) },
    });
    await audit(
      {
        action: "plan.drafted_by_policy",
        teamId: synced.teamId,
        target: planId,
        metadata: { check, title, operations: operations.length, findings: fixed.length, superseded: replaced },
      },
      tx,
    );
    return { check, planId, findings: fixed.length, operations: operations.length, superseded: replaced };
  }, STORE_TRANSACTION);
}

/**
 * One plan's operations for all of a check's findings: each finding's fix (fixes.ts), the records
 * of fixes that make the same edit merged into one bulk edit, against the records as the sync read them.
 */
export function fixOperations(findings: readonly Finding[], data: SetupData, email: string): { operations: DraftOperation[]; title: string } {
  const merged = new Map<string, Omit<DraftedFix, "ids"> & { ids: Set<number> }>();
  for (const finding of findings) {
    const fix = fixFor(finding, email);
    if (!fix || fix.ids.length === 0) continue;
    const key = `${fix.resource}\n${JSON.stringify(fix.edit)}`;
    const into = merged.get(key) ?? { ...fix, ids: new Set<number>() };
    fix.ids.forEach((id) => into.ids.add(id));
    merged.set(key, into);
  }
  const edits: PlanEdit[] = [...merged.values()].map((fix) =>
    fix.resource === "webhooks"
      ? { kind: "webhooks.bulk", ids: [...fix.ids], edit: fix.edit as Extract<PlanEdit, { kind: "webhooks.bulk" }>["edit"] }
      : { kind: "groups.bulk", ids: [...fix.ids], edit: fix.edit as Extract<PlanEdit, { kind: "groups.bulk" }>["edit"] },
  );
  const webhookIds = new Set(edits.flatMap((edit) => (edit.kind === "webhooks.bulk" ? edit.ids : [])));
  const operations = operationsFor(edits, setupRecords(data, { webhooks: webhookIds }));
  const first = [...merged.values()][0];
  const title = fitTitle(`${first?.title ?? "Fix"}: ${plural(findings.length, "finding")}`);
  return { operations, title };
}

/**
 * One plan for the live events missing a required trigger: each added to every webhook the team
 * names for new events (those still in the account; a catch-all one already serves every event).
 */
export function newEventOperations(findings: readonly Finding[], data: SetupData, chosen: NewEventWebhooks): { operations: DraftOperation[]; title: string } {
  const eventIds = [...new Set(findings.flatMap((finding) => finding.subjects.filter((subject) => subject.kind === "event").map((subject) => subject.id)))];
  const wanted = new Set(chosen.webhookIds);
  const targets: number[] = [];
  for (const group of data.groups)
    for (const hook of group.webhooks ?? []) if (wanted.has(hook.id) || (chosen.groupId !== null && group.id === chosen.groupId)) targets.push(hook.id);
  if (eventIds.length === 0 || targets.length === 0) return { operations: [], title: "" };
  const edits: PlanEdit[] = [{ kind: "webhooks.bulk", ids: targets, edit: { kind: "add-events", eventIds } }];
  const operations = operationsFor(edits, setupRecords(data, { webhooks: new Set(targets) }));
  return { operations, title: fitTitle(`Add new events to the team's default webhooks: ${plural(eventIds.length, "event")}`) };
}
