import "server-only";
import type { Actor } from "@/lib/access/actor";
import { auditByActor } from "@/lib/audit/log";
import { CredentialUnreadableError, loadOwnCredential } from "@/lib/ems-access/credential";
import { prisma, type TransactionClient } from "@/lib/db/prisma";
import { SafeError, NotFoundError } from "@/lib/errors";
import { requireManager, type RequestContext } from "@/lib/access/guards";
import { accountKey, accountLabel } from "@/lib/ems-access/account-key";

/**
 * Trackers: one per EMS account per team (lib/history/sync.ts syncs them). Owners and admins turn
 * tracking on for the account behind their OWN saved credential (the portal reads an account only
 * through someone's own credential), change its schedule, pause, resume, take it over, or stop it.
 * Every function checks the actor's current role and team; another team's tracker is "not found".
 */

export class NoCredentialForTrackingError extends SafeError {
  constructor() {
    super("Save your own API credentials in Settings first: tracking reads the account with them.", "no_credential");
  }
}

/** The account the actor's own credential reads. */
export async function ownAccount(actor: Pick<Actor, "userId">): Promise<{ key: string; label: string }> {
  const credential = await loadOwnCredential(actor);
  if (!credential) throw new NoCredentialForTrackingError();
  return { key: accountKey(credential.baseUrl, credential.consumerKey), label: accountLabel(credential.baseUrl, credential.consumerKey) };
}

export interface TrackerOverview {
  id: string;
  accountLabel: string;
  /** The actor's own credential reads this account. */
  isOwnAccount: boolean;
  runnerEmail: string | null;
  runnerIsActor: boolean;
  createdByEmail: string | null;
  createdAt: Date;
  intervalMinutes: number;
  status: "active" | "paused";
  pausedReason: string | null;
  nextRunAt: Date;
  running: boolean;
  lastSync: { status: string; message: string | null; startedAt: Date; finishedAt: Date | null; calls: number; credits: number; changeCount: number } | null;
  slackUrlLabel: string | null;
}

/** The team's trackers, for Settings (any member may see them). */
export async function listTrackers(actor: Actor): Promise<TrackerOverview[]> {
  const [trackers, own] = await Promise.all([
    prisma.changeTracker.findMany({
      where: { teamId: actor.teamId },
      orderBy: { createdAt: "asc" },
      include: { runner: { select: { email: true } }, syncs: { orderBy: { startedAt: "desc" }, take: 1 } },
    }),
    // No credential, or one that no longer decrypts: the actor's own account is none of these.
    ownAccount(actor).catch((error: unknown) => {
      if (error instanceof NoCredentialForTrackingError || error instanceof CredentialUnreadableError) return null;
      throw error;
    }),
  ]);
  const now = Date.now();
  return trackers.map((tracker) => {
    const last = tracker.syncs[0];
    return {
      id: tracker.id,
      accountLabel: tracker.accountLabel,
      isOwnAccount: own?.key === tracker.accountKey,
      runnerEmail: tracker.runner?.email ?? null,
      runnerIsActor: tracker.runnerId === actor.userId,
      createdByEmail: tracker.createdByEmail,
      createdAt: tracker.createdAt,
      intervalMinutes: tracker.intervalMinutes,
      status: tracker.status === "paused" ? "paused" : "active",
      pausedReason: tracker.pausedReason,
      nextRunAt: tracker.nextRunAt,
      running: tracker.leaseUntil !== null && tracker.leaseUntil.getTime() > now,
      lastSync: last
        ? {
            status: last.status,
            message: last.message,
            startedAt: last.startedAt,
            finishedAt: last.finishedAt,
            calls: last.calls,
            credits: last.credits,
            changeCount: last.changeCount,
          }
        : null,
      slackUrlLabel: tracker.slackUrlLabel,
    };
  });
}

/** A tracker of `account` for the actor's team, run by the actor, who is its maker too. */
export function newTracker(actor: Pick<Actor, "teamId" | "userId" | "email">, account: { key: string; label: string }, intervalMinutes: number) {
  return {
    teamId: actor.teamId,
    accountKey: account.key,
    accountLabel: account.label,
    runnerId: actor.userId,
    createdById: actor.userId,
    createdByEmail: actor.email,
    intervalMinutes,
  };
}

/** Owners and admins: tracks the account behind their own credential; its first sync is due at once. */
export async function startTracking(actor: Actor, input: { intervalMinutes: number }, context: RequestContext = {}): Promise<{ id: string }> {
  const account = await ownAccount(actor);
  return prisma.$transaction(async (tx) => {
    await requireManager(tx, actor);
    // The unique index (team, account) decides between two admins turning it on at once.
    const tracker = await tx.changeTracker
      .create({
        data: newTracker(actor, account, input.intervalMinutes),
        select: { id: true },
      })
      .catch((error: unknown) => {
        throw (error as { code?: string }).code === "P2002" ? new SafeError("This account is already tracked for your team.", "already_tracked") : error;
      });
    await auditByActor(
      actor,
      {
        action: "history.tracking_started",
        target: `tracker:${tracker.id}`,
        ip: context.ip ?? null,
        metadata: { account: account.label, intervalMinutes: input.intervalMinutes },
      },
      tx,
    );
    return tracker;
  });
}

async function teamTracker(tx: TransactionClient, actor: Actor, trackerId: string) {
  const tracker = await tx.changeTracker.findFirst({ where: { id: trackerId, teamId: actor.teamId } });
  if (!tracker) throw new NotFoundError("That tracker no longer exists.");
  return tracker;
}

/** Owners and admins: the schedule. */
export async function setTrackerInterval(actor: Actor, input: { trackerId: string; intervalMinutes: number }, context: RequestContext = {}): Promise<void> {
  await prisma.$transaction(async (tx) => {
    await requireManager(tx, actor);
    const tracker = await teamTracker(tx, actor, input.trackerId);
    // The next run moves with the schedule: never later than one new interval from now.
    const soonest = new Date(Date.now() + input.intervalMinutes * 60_000);
    await tx.changeTracker.update({
      where: { id: tracker.id },
      data: { intervalMinutes: input.intervalMinutes, nextRunAt: tracker.nextRunAt < soonest ? tracker.nextRunAt : soonest },
    });
    await auditByActor(
      actor,
      {
        action: "history.schedule_changed",
        target: `tracker:${tracker.id}`,
        ip: context.ip ?? null,
        metadata: { from: tracker.intervalMinutes, to: input.intervalMinutes },
      },
      tx,
    );
  });
}

/**
 * Owners and admins: runs the tracker with their own credential from now on (it must read the same
 * account) and resumes it if it was paused. For the runner themselves, this is "resume".
 */
export async function takeOverTracker(actor: Actor, input: { trackerId: string }, context: RequestContext = {}): Promise<void> {
  const account = await ownAccount(actor);
  await prisma.$transaction(async (tx) => {
    await requireManager(tx, actor);
    const tracker = await teamTracker(tx, actor, input.trackerId);
    if (tracker.accountKey !== account.key)
      throw new SafeError("Your own credentials read another EMS account: save credentials of this account to run its tracker.", "other_account");
    await tx.changeTracker.update({ where: { id: tracker.id }, data: { runnerId: actor.userId, status: "active", pausedReason: null, nextRunAt: new Date() } });
    const action = tracker.runnerId === actor.userId ? "history.tracking_resumed" : "history.tracking_taken_over";
    await auditByActor(actor, { action, target: `tracker:${tracker.id}`, ip: context.ip ?? null, metadata: { account: tracker.accountLabel } }, tx);
  });
}

/** Owners and admins: pauses the schedule (Sync now too) until someone resumes it. */
export async function pauseTracker(actor: Actor, input: { trackerId: string }, context: RequestContext = {}): Promise<void> {
  await prisma.$transaction(async (tx) => {
    await requireManager(tx, actor);
    const tracker = await teamTracker(tx, actor, input.trackerId);
    await tx.changeTracker.update({ where: { id: tracker.id }, data: { status: "paused", pausedReason: `Paused by ${actor.email}.` } });
    await auditByActor(
      actor,
      { action: "history.tracking_paused", target: `tracker:${tracker.id}`, ip: context.ip ?? null, metadata: { account: tracker.accountLabel } },
      tx,
    );
  });
}

/**
 * Owners and admins: stops tracking and deletes the tracker's whole history. The portal then no
 * longer starts tracking by itself when a credential is saved; turning it on in Settings still works.
 */
export async function stopTracking(actor: Actor, input: { trackerId: string }, context: RequestContext = {}): Promise<void> {
  await prisma.$transaction(async (tx) => {
    await requireManager(tx, actor);
    const tracker = await teamTracker(tx, actor, input.trackerId);
    await tx.changeTracker.delete({ where: { id: tracker.id } });
    // Their choice holds: saving a credential no longer starts tracking by itself (auto-tracking.ts).
    await tx.team.update({ where: { id: actor.teamId }, data: { autoTrackHistory: false } });
    await auditByActor(
      actor,
      { action: "history.tracking_stopped", target: `tracker:${tracker.id}`, ip: context.ip ?? null, metadata: { account: tracker.accountLabel } },
      tx,
    );
  });
}

/**
 * The tracker "Sync now" may run for the actor: their team's, and they are an owner or admin.
 * (The sync itself then uses the runner's credential, as the schedule does.)
 */
export async function trackerForManualSync(actor: Actor, trackerId: string): Promise<{ id: string; status: string; pausedReason: string | null }> {
  return prisma.$transaction(async (tx) => {
    await requireManager(tx, actor);
    const tracker = await teamTracker(tx, actor, trackerId);
    return { id: tracker.id, status: tracker.status, pausedReason: tracker.pausedReason };
  });
}

/**
 * When a person deletes their credential: the trackers they run pause at once and say why (the
 * next sync would find out anyway; Settings should not show them as running until then).
 */
export async function pauseTrackersOfRunner(userId: string, email: string): Promise<void> {
  await prisma.changeTracker.updateMany({
    where: { runnerId: userId, status: "active" },
    data: { status: "paused", pausedReason: `${email} removed their API credentials. They can save them again, or another owner or admin can take it over.` },
  });
}
