import "server-only";
import { randomUUID } from "node:crypto";
import { prisma } from "@/lib/db/prisma";
import { CredentialsRejectedError, emsConfig, isEmsError } from "@/lib/ems";
import { LISTING_COST } from "@/lib/ems/config";
import { fingerprintSecret, historyEnv } from "@/lib/env";
import { getRequiredTriggers } from "@/lib/setup/requirements";
import { userMessageOf } from "@/lib/errors";
import { CredentialUnreadableError, loadOwnCredential, getEmsClientForActor } from "@/lib/ems-access/credential";
import { listMutes, applyMutes } from "@/lib/health/mutes";
import { runHealthChecks, type Finding } from "@/lib/health/rules";
import { stopSignal } from "@/lib/deadline";
import { log } from "@/lib/log";
import type { SetupData } from "@/lib/setup/setup-data";
import { readSetup } from "@/lib/setup/load";
import { accountKey } from "@/lib/ems-access/account-key";
import { announceSync } from "./announce";
import { diffSetup } from "./diff";
import { createPacer, PacedOutError } from "./pacing";
import { headerHasher, recordKey, snapshotRecords, type SnapshotRecord } from "./records";
import { checkpointDue, loadKnownFor, writeCheckpoint, writeDiff, type SnapshotRecordLike } from "./store";
import { plural } from "@/lib/text/plural";

/**
 * One sync of a tracker: claim it, read the account's setup with the runner's own credential
 * (within change history's share of the rate limit), store what changed, tell the team.
 *
 * Exactly one sync of a tracker runs at a time, whatever runs it (the schedule on any instance, the
 * Vercel cron route, "Sync now"): a conditional UPDATE claims the tracker for a bounded time
 * (`leaseUntil`), and a claim whose holder died simply expires. A scheduled run claims only a
 * tracker that is due (`nextRunAt`), so two instances working the same tick sync it once.
 */

export type SyncTrigger = "schedule" | "manual" | "cron";

export type SyncOutcome =
  | { status: "ok"; syncId: string; changes: number; calls: number; credits: number; bytes: number; baseline: boolean; newlyFailing: number }
  | { status: "paced"; syncId: string; message: string; resumeAt: Date }
  | { status: "paused"; syncId: string | null; message: string }
  | { status: "failed"; syncId: string; message: string }
  /** Not claimed: another sync of it is running, it is not due, or it is paused. */
  | { status: "busy" };

export interface SyncOptions {
  trigger: SyncTrigger;
  /** Run even if not due (Sync now). */
  force?: boolean;
  signal?: AbortSignal;
  /**
   * Epoch ms: the job's deadline (a serverless function's time limit). The alert's first send, made
   * inside the sync, stops there and leaves the alert to the alert-delivery job.
   */
  deadline?: number;
  /** Tests and the bench: the rate-limit window the share is counted over. */
  paceWindowMs?: number;
  /**
   * Work on the setup the sync just stored, while the tracker is still claimed (so one at a time
   * per tracker): the top layer passes the policies' drafting here (lib/jobs, lib/plans/policy-fixes.ts),
   * which history may not import. Its failure is logged; the sync stays a success.
   */
  afterSync?: (synced: SyncedSetup) => Promise<unknown>;
}

/** A setup a sync read and stored, as `afterSync` gets it. */
export interface SyncedSetup {
  trackerId: string;
  teamId: string;
  /** Whose credential read it. */
  runnerId: string;
  accountKey: string;
  seenAt: Date;
  data: SetupData;
}

/** A sync that takes longer than this is presumed dead and may be claimed again. */
const CLAIM_MS = 15 * 60_000;

interface ClaimedTracker {
  id: string;
  teamId: string;
  runnerId: string | null;
  accountKey: string;
  intervalMinutes: number;
  failingFindings: string[];
}

async function claim(trackerId: string, leaseId: string, force: boolean): Promise<ClaimedTracker | null> {
  const rows = await prisma.$queryRaw<ClaimedTracker[]>`
    UPDATE "ChangeTracker"
       SET "leaseId" = ${leaseId}, "leaseUntil" = now() + ${`${CLAIM_MS} milliseconds`}::interval
     WHERE "id" = ${trackerId}
       AND "status" = 'active'
       AND ("leaseUntil" IS NULL OR "leaseUntil" < now())
       AND (${force} OR "nextRunAt" <= now())
    RETURNING "id", "teamId", "runnerId", "accountKey", "intervalMinutes", "failingFindings"`;
  return rows[0] ?? null;
}

/** Ends the claim, with what the tracker should remember. Only the claim's holder may. */
async function release(
  trackerId: string,
  leaseId: string,
  data: { nextRunAt: Date; lastRunAt?: Date; failingFindings?: string[]; status?: string; pausedReason?: string | null },
): Promise<void> {
  await prisma.changeTracker.updateMany({ where: { id: trackerId, leaseId }, data: { ...data, leaseId: null, leaseUntil: null } });
}

/** Why the runner's credential cannot sync this tracker now, or null when it can. */
async function runnerProblem(tracker: ClaimedTracker): Promise<string | null> {
  if (!tracker.runnerId) return "The member who ran it left. Another owner or admin can take it over with their own credentials.";
  const runner = await prisma.user.findUnique({ where: { id: tracker.runnerId }, select: { email: true, membership: { select: { teamId: true } } } });
  if (!runner || runner.membership?.teamId !== tracker.teamId) {
    return "The member who ran it is no longer in the team. Another owner or admin can take it over with their own credentials.";
  }
  let credential: Awaited<ReturnType<typeof loadOwnCredential>>;
  try {
    credential = await loadOwnCredential({ userId: tracker.runnerId });
  } catch (error) {
    // Saved, but under a key the ring no longer has (a key rotation that dropped it): they did not
    // remove anything, and saving them again is the fix. Anything else (the database) is not a
    // reason to pause: it fails this run like the runner's lookup above would.
    if (!(error instanceof CredentialUnreadableError)) throw error;
    return `${runner.email}'s saved API credentials can no longer be read: the server's encryption key changed since they were saved. They can save them again, or another owner or admin can take it over.`;
  }
  if (!credential) return `${runner.email} removed their API credentials. They can save them again, or another owner or admin can take it over.`;
  if (accountKey(credential.baseUrl, credential.consumerKey) !== tracker.accountKey) {
    return `${runner.email}'s API credentials now read another EMS account. Another owner or admin can take it over with credentials of this account.`;
  }
  return null;
}

/** The findings failing at warning or error, unmuted: "rule\nkey" each. */
function failingKeys(findings: readonly Finding[]): string[] {
  return findings.filter((finding) => finding.severity !== "notice").map((finding) => `${finding.ruleId}\n${finding.key}`);
}

export async function syncTracker(trackerId: string, options: SyncOptions): Promise<SyncOutcome> {
  const leaseId = randomUUID();
  const tracker = await claim(trackerId, leaseId, options.force ?? false);
  if (!tracker) return { status: "busy" };
  const startedAt = new Date();
  const nextRunAt = () => new Date(Date.now() + tracker.intervalMinutes * 60_000);

  const problem = await runnerProblem(tracker);
  if (problem) {
    const sync = await prisma.setupSync.create({ data: { trackerId, trigger: options.trigger, status: "paused", message: problem, finishedAt: new Date() } });
    await release(trackerId, leaseId, { nextRunAt: nextRunAt(), status: "paused", pausedReason: problem });
    return { status: "paused", syncId: sync.id, message: problem };
  }

  const previous = await prisma.setupSync.findFirst({ where: { trackerId }, orderBy: { startedAt: "desc" }, select: { status: true, startedAt: true } });
  const sync = await prisma.setupSync.create({ data: { trackerId, trigger: options.trigger, startedAt } });
  const finish = (data: { status: string; message?: string | null; calls?: number; changeCount?: number; bytesStored?: number }) =>
    prisma.setupSync.update({ where: { id: sync.id }, data: { ...data, credits: (data.calls ?? 0) * LISTING_COST, finishedAt: new Date() } });

  try {
    const client = await getEmsClientForActor({ userId: tracker.runnerId! });
    if (!client) throw new Error("the runner's credential vanished between the check and the sync");
    const pacer = await createPacer({ fingerprint: client.fingerprint, share: historyEnv().HISTORY_SYNC_BUDGET_PERCENT / 100, windowMs: options.paceWindowMs });
    // A sync the share stopped goes on where it stopped: the pages it read are shared answers,
    // served again (without a call) for as long as that sync is ago.
    const resuming = previous?.status === "paced";
    const windowMs = resuming ? Date.now() - previous.startedAt.getTime() + 60_000 : emsConfig().coverageCacheMs;
    const read = await readSetup(
      client,
      {
        teamId: tracker.teamId,
        kind: "sync",
        waitForRateLimit: true,
        signal: options.signal,
        refresh: options.trigger === "manual" && !resuming,
        windowMs,
        requestId: randomUUID(),
      },
      pacer.beforePage,
    );
    if (read.snapshot.partial) {
      const message = "The account changed size while it was being read, or has more than 40,000 groups or events. Nothing was stored; the next run tries again.";
      await finish({ status: "failed", message, calls: read.snapshot.calls });
      await release(trackerId, leaseId, { nextRunAt: nextRunAt(), lastRunAt: startedAt });
      return { status: "failed", syncId: sync.id, message };
    }
    const stored = await storeSnapshot(tracker, sync.id, startedAt, read.snapshot.data);
    await finish({ status: "ok", message: stored.summary, calls: read.snapshot.calls, changeCount: stored.changes, bytesStored: stored.bytes });
    if (options.afterSync) {
      const synced = { trackerId, teamId: tracker.teamId, runnerId: tracker.runnerId!, accountKey: tracker.accountKey, seenAt: startedAt, data: read.snapshot.data };
      await options
        .afterSync(synced)
        .catch((error: unknown) =>
          log.error({ event: "history.after_sync_failed", trackerId, syncId: sync.id, err: error }, "the work after a sync failed; the sync itself is stored"),
        );
    }
    await release(trackerId, leaseId, { nextRunAt: nextRunAt(), lastRunAt: startedAt, failingFindings: stored.failing });
    await announceSync({
      trackerId,
      teamId: tracker.teamId,
      syncId: sync.id,
      changes: stored.changeRecords,
      groupNames: stored.groupNames,
      newlyFailing: stored.newlyFailing,
      baseline: stored.baseline,
      signal: stopSignal(options),
    }).catch((error: unknown) => log.error({ event: "history.announce_failed", trackerId, syncId: sync.id, err: error }, "alerts for a sync could not be queued"));
    return {
      status: "ok",
      syncId: sync.id,
      changes: stored.changes,
      calls: read.snapshot.calls,
      credits: read.snapshot.calls * LISTING_COST,
      bytes: stored.bytes,
      baseline: stored.baseline,
      newlyFailing: stored.newlyFailing.length,
    };
  } catch (error) {
    if (error instanceof PacedOutError) {
      const minutes = Math.max(1, Math.ceil((error.resumeAt.getTime() - Date.now()) / 60_000));
      const message = `Paced: history syncs of this credential spent ${error.spent} of their ${error.share}-credit share (${historyEnv().HISTORY_SYNC_BUDGET_PERCENT}% of ${error.limit}) in the last 10 minutes. It goes on in about ${minutes} min, reusing the pages already read.`;
      await finish({ status: "paced", message });
      await release(trackerId, leaseId, { nextRunAt: error.resumeAt });
      return { status: "paced", syncId: sync.id, message, resumeAt: error.resumeAt };
    }
    if (error instanceof CredentialsRejectedError) {
      const message = `The EMS API rejected the credentials: ${error.userMessage} Tracking is paused until they are fixed or another owner or admin takes it over.`;
      await finish({ status: "paused", message });
      await release(trackerId, leaseId, { nextRunAt: nextRunAt(), lastRunAt: startedAt, status: "paused", pausedReason: message });
      return { status: "paused", syncId: sync.id, message };
    }
    if (!isEmsError(error)) log.error({ event: "history.sync_failed", trackerId, syncId: sync.id, err: error }, "history sync failed");
    const message = userMessageOf(error);
    // The sync's own row stays "running" then; the tracker is still released below, and the next run goes on.
    await finish({ status: "failed", message }).catch((finishError: unknown) =>
      log.error({ event: "history.finish_failed", trackerId, syncId: sync.id, err: finishError }, "a failed sync could not be recorded as failed"),
    );
    await release(trackerId, leaseId, { nextRunAt: nextRunAt(), lastRunAt: startedAt });
    return { status: "failed", syncId: sync.id, message };
  }
}

interface Stored {
  changes: number;
  bytes: number;
  baseline: boolean;
  summary: string;
  failing: string[];
  newlyFailing: Finding[];
  changeRecords: ReturnType<typeof diffSetup>["changes"];
  /** Group names by id as this sync saw them (a group removed: its last name). */
  groupNames: ReadonlyMap<number, string | null>;
}

/** Diffs the snapshot against what is stored, writes it (and a checkpoint when due) in one transaction. */
async function storeSnapshot(tracker: ClaimedTracker, syncId: string, seenAt: Date, data: SetupData): Promise<Stored> {
  const records = snapshotRecords(data, headerHasher(fingerprintSecret(), tracker.id));
  const [known, requiredTriggers, mutes, needCheckpoint] = await Promise.all([
    loadKnownFor(tracker.id, records),
    getRequiredTriggers({ teamId: tracker.teamId }),
    listMutes({ teamId: tracker.teamId }),
    checkpointDue(tracker.id, seenAt),
  ]);
  // The first sync is the baseline: every record is stored, none is reported as "added".
  const baseline = known.size === 0;
  const diff = diffSetup(known, records);
  const changes = baseline ? [] : diff.changes;
  const groupNames = new Map(data.groups.map((group) => [group.id, group.name ?? null]));
  for (const change of diff.changes) {
    if (change.kind === "group" && change.change === "removed" && change.recordName) groupNames.set(change.recordId, change.recordName);
  }

  const active = applyMutes(runHealthChecks(data, { now: seenAt, requiredTriggers }), mutes).active;
  const failing = failingKeys(active);
  const before = new Set(tracker.failingFindings);
  const newlyFailing = baseline ? [] : active.filter((finding) => finding.severity !== "notice" && !before.has(`${finding.ruleId}\n${finding.key}`));

  const bytes = await prisma.$transaction(
    async (tx) => {
      let written = await writeDiff(tx, { trackerId: tracker.id, teamId: tracker.teamId, syncId, seenAt, diff: { ...diff, changes }, groupNames });
      if (needCheckpoint) {
        written += await writeCheckpoint(tx, tracker.id, seenAt, checkpointRecords(records, diff.upserts));
      }
      return written;
    },
    { timeout: 120_000, maxWait: 10_000 },
  );
  const counts = { groups: data.groups.length, webhooks: records.filter((record) => record.kind === "webhook").length, events: data.events.length };
  const summary = baseline
    ? `First snapshot: ${counts.groups} groups, ${counts.webhooks} webhooks, ${counts.events} events.`
    : `${changes.length === 0 ? "No changes" : plural(changes.length, "change")} in ${counts.groups} groups, ${counts.webhooks} webhooks, ${counts.events} events.`;
  return { changes: changes.length, bytes, baseline, summary, failing, newlyFailing, changeRecords: changes, groupNames };
}

/** The state as stored after the sync: a changed record's merged state, every other record as read. */
function checkpointRecords(records: readonly SnapshotRecord[], upserts: ReturnType<typeof diffSetup>["upserts"]): SnapshotRecordLike[] {
  const merged = new Map(upserts.map((record) => [recordKey(record.kind, record.id), record]));
  return records.map((record) => {
    const stored = merged.get(recordKey(record.kind, record.id));
    return {
      kind: record.kind,
      id: record.id,
      groupId: record.groupId,
      name: stored?.name ?? record.name,
      state: stored?.state ?? record.state,
      secrets: stored?.secrets ?? record.secrets,
    };
  });
}
