import "server-only";
import type { Actor } from "@/lib/access/actor";
import { auditByActor } from "@/lib/audit/log";
import { SafeError } from "@/lib/errors";
import type { RequestContext } from "@/lib/access/guards";
import { syncTracker, type SyncOptions, type SyncOutcome } from "./sync";
import { trackerForManualSync } from "./trackers";
import { plural } from "@/lib/text/plural";

/**
 * "Sync now" of a team's tracker, for an owner or admin of that team (checked by
 * trackerForManualSync against the role the database has now): runs the sync at once, with its
 * runner's credential and within change history's share of the rate limit (a sync the share stops
 * goes on by itself, and says when), and records it. A paused tracker is refused before anything runs.
 */
export async function syncTrackerNow(actor: Actor, trackerId: string, context: RequestContext = {}, options: Pick<SyncOptions, "afterSync"> = {}): Promise<SyncOutcome> {
  const tracker = await trackerForManualSync(actor, trackerId);
  if (tracker.status === "paused") throw new SafeError(`Tracking is paused: ${tracker.pausedReason ?? "resume it first."}`, "paused");
  const outcome = await syncTracker(tracker.id, { trigger: "manual", force: true, afterSync: options.afterSync });
  await auditByActor(actor, { action: "history.synced_now", target: `tracker:${tracker.id}`, ip: context.ip, metadata: { status: outcome.status } });
  return outcome;
}

/**
 * What the person is told of a sync they asked for: a sentence when it ran (or was paced), and a
 * SafeError when it could not (a sync already running, or a failure in words).
 */
export function syncNowMessage(outcome: SyncOutcome): string {
  switch (outcome.status) {
    case "ok":
      return outcome.changes === 0 ? "Synced: nothing changed since the last sync." : `Synced: ${plural(outcome.changes, "change")} found.`;
    case "paced":
      return outcome.message;
    case "busy":
      throw new SafeError("A sync of this account is running right now; its outcome shows here when it ends.", "busy");
    default:
      throw new SafeError(outcome.message, outcome.status);
  }
}
