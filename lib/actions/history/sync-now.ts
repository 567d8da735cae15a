"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { auditByActor } from "@/lib/audit/log";
import { SafeError } from "@/lib/errors";
import { syncTracker } from "@/lib/history/sync";
import { trackerForManualSync } from "@/lib/history/trackers";
import { trackerIdSchema } from "./tracker.validation";

/**
 * Owners and admins: syncs the tracker now, with its runner's credential and within change
 * history's share of the rate limit (a sync the share stops goes on by itself, and says when).
 */
export const syncNowAction = authedAction({ name: "history.sync-now", schema: trackerIdSchema }, async (input, { actor, ip }) => {
  const tracker = await trackerForManualSync(actor, input.trackerId);
  if (tracker.status === "paused") throw new SafeError(`Tracking is paused: ${tracker.pausedReason ?? "resume it first."}`, "paused");
  const outcome = await syncTracker(tracker.id, { trigger: "manual", force: true });
  await auditByActor(actor, { action: "history.synced_now", target: `tracker:${tracker.id}`, ip, metadata: { status: outcome.status } });
  revalidatePath("/settings");
  revalidatePath("/changes");
  switch (outcome.status) {
    case "ok":
      return { message: outcome.changes === 0 ? "Synced: nothing changed since the last sync." : `Synced: ${outcome.changes} change${outcome.changes === 1 ? "" : "s"} found.` };
    case "paced":
      return { message: outcome.message };
    case "busy":
      throw new SafeError("A sync of this account is running right now; its outcome shows here when it ends.", "busy");
    default:
      throw new SafeError(outcome.message, outcome.status);
  }
});
