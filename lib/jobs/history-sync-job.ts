import "server-only";
import { syncDueTrackers } from "@/lib/history/schedule";
import { log } from "@/lib/log";
import { findDriftAfterSyncs } from "@/lib/plans/drift";
import { draftPolicyFixes } from "@/lib/plans/policy-fixes";
import type { JobDefinition } from "./registry";

/**
 * Change history's schedule: every minute, the trackers whose next sync is due are synced, one
 * after another (lib/history/schedule.ts). Each tracker keeps its own interval (default 15 min);
 * the tick only finds who is due, and a tracker is claimed before it syncs, so however many
 * instances or cron calls look at the same tick, each due tracker syncs once.
 */
export const historySyncJob: JobDefinition<void> = {
  name: "history-sync",
  schedule: "* * * * *",
  cronRoute: {
    path: "/api/cron/history",
    // Daily: Vercel's Hobby plan runs cron jobs at most once a day and refuses a deployment that
    // asks for more. On a paid plan, set "*/5 * * * *" here and in vercel.json; or let any
    // scheduler call the route with CRON_SECRET (README, "Scheduled jobs").
    schedule: "11 4 * * *",
  },
  // A paced sync stops by itself, and a sync of 5,000 groups takes seconds: a run syncs the due
  // trackers one after another for at most this long (the next tick goes on), and a killed
  // instance's tracker lease (15 min, lib/history/sync.ts) outlasts it.
  expireInSeconds: 5 * 60,
  retryLimit: 0,
  async run({ signal, deadline, trigger }) {
    // History cannot import plans (the layers): after each sync the team's "draft the fix" checks draft
    // their plans (inside the sync, while its tracker is claimed); drift from applied plans is
    // compared after all of them.
    const { syncIds, ...result } = await syncDueTrackers({ signal, deadline, trigger: trigger === "cron" ? "cron" : "schedule", afterSync: draftPolicyFixes });
    const drift = await findDriftAfterSyncs(syncIds);
    if (result.synced > 0) log.info({ event: "history.tick", ...result, drift: drift.length }, "history: due trackers synced");
    return { ...result, drift: drift.length };
  },
};
