"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { syncNowMessage, syncTrackerNow } from "@/lib/history/sync-now";
import { findDriftAfterSyncs } from "@/lib/plans/drift";
import { draftPolicyFixes } from "@/lib/plans/policy-fixes";
import { trackerIdSchema } from "./tracker.validation";

/** Owners and admins: syncs the tracker now (lib/history/sync-now.ts). */
export const syncNowAction = authedAction({ name: "history.sync-now", schema: trackerIdSchema }, async (input, { actor, ip }) => {
  // Like a scheduled sync, it drafts the fixes of the team's "draft the fix" checks.
  const outcome = await syncTrackerNow(actor, input.trackerId, { ip }, { afterSync: draftPolicyFixes });
  // History cannot import plans (the layers): drift from applied plans is compared here, after the sync.
  if (outcome.status === "ok" && !outcome.baseline) await findDriftAfterSyncs([outcome.syncId]);
  // Whatever the outcome, the tracker's state on these pages changed.
  revalidatePath("/settings");
  revalidatePath("/changes");
  revalidatePath("/health");
  revalidatePath("/plans");
  return { message: syncNowMessage(outcome) };
});
