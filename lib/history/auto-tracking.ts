import "server-only";
import type { Actor } from "@/lib/access/actor";
import { canManageTeam } from "@/lib/access/roles";
import { auditByActor } from "@/lib/audit/log";
import { prisma } from "@/lib/db/prisma";
import { MAX_PER_PAGE } from "@/lib/ems/contract";
import { LISTING_COST } from "@/lib/ems/config";
import { historyEnv } from "@/lib/env";
import { log } from "@/lib/log";
import { newTracker, ownAccount } from "./trackers";
import { DEFAULT_RATE_LIMIT, RATE_WINDOW_MS } from "./pacing";
import { DEFAULT_SYNC_INTERVAL, SYNC_INTERVALS } from "./sync-intervals";

/**
 * Change history from the first minute (issue 37 §1): when someone saves a working credential for an
 * account their team does not track, the team starts tracking it, so Changes, a webhook's history
 * and "as of" know the setup from that day on instead of waiting for an owner to find the switch.
 * It starts for the credential of an owner or admin, who may turn tracking on anyway, and runs its
 * syncs with it, as if they had turned it on; a member's credential starts nothing (a member trying
 * another account does not give the team a tracker). An owner or admin can change the schedule,
 * take it over or stop it in Settings, and once someone stopped tracking by hand
 * (`Team.autoTrackHistory` false) the portal never starts it again itself.
 */

/**
 * How often to sync an account of `groupCount` groups: the shortest schedule (15 minutes at the
 * least) at which its syncs spend at most half of change history's share of the rate limit, so
 * "Sync now" and a catch-up still fit. A sync walks the groups (with their webhooks) and the events
 * at 200 a page; the events are counted as many pages as the groups, not known before the first
 * sync. Unknown size: the default.
 */
export function defaultSyncInterval(groupCount: number | null, sharePercent = historyEnv().HISTORY_SYNC_BUDGET_PERCENT): number {
  if (groupCount === null) return DEFAULT_SYNC_INTERVAL;
  const creditsPerSync = 2 * Math.max(1, Math.ceil(groupCount / MAX_PER_PAGE)) * LISTING_COST;
  const creditsPerHourAllowed = (DEFAULT_RATE_LIMIT * (sharePercent / 100) * (60 * 60_000)) / RATE_WINDOW_MS / 2;
  const fitting = SYNC_INTERVALS.find((minutes) => minutes >= DEFAULT_SYNC_INTERVAL && creditsPerSync * (60 / minutes) <= creditsPerHourAllowed);
  return fitting ?? SYNC_INTERVALS[SYNC_INTERVALS.length - 1]!;
}

/**
 * After `actor` saved a credential the EMS accepted, reading an account of `groupCount` groups:
 * starts tracking that account for their team when they are an owner or admin, unless it is
 * tracked already or the team stopped tracking by hand. Its first sync is due at once (the
 * schedule takes it up). Never fails the save: a problem is logged and the team can still turn
 * tracking on in Settings.
 */
export async function trackNewAccount(actor: Actor, groupCount: number | null): Promise<{ id: string; intervalMinutes: number } | null> {
  try {
    // Role and the team's choice first, in one read: a member's save decrypts nothing more here.
    const membership = await prisma.membership.findUnique({
      where: { userId: actor.userId },
      select: { teamId: true, role: true, team: { select: { autoTrackHistory: true } } },
    });
    if (membership?.teamId !== actor.teamId || !canManageTeam(membership.role) || !membership.team.autoTrackHistory) return null;
    const account = await ownAccount(actor);
    const intervalMinutes = defaultSyncInterval(groupCount);
    return await prisma.$transaction(async (tx) => {
      // The unique index (team, account) decides between two people saving credentials at once.
      const created = await tx.changeTracker.createManyAndReturn({
        data: [newTracker(actor, account, intervalMinutes)],
        skipDuplicates: true,
        select: { id: true },
      });
      const tracker = created[0];
      if (!tracker) return null;
      await auditByActor(
        actor,
        {
          action: "history.tracking_started",
          target: `tracker:${tracker.id}`,
          metadata: { account: account.label, intervalMinutes, automatic: true },
        },
        tx,
      );
      return { id: tracker.id, intervalMinutes };
    });
  } catch (error) {
    log.error({ event: "history.auto_tracking_failed", teamId: actor.teamId, err: error }, "tracking did not start with the first credential");
    return null;
  }
}
