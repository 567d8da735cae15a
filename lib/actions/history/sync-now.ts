"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { syncNowMessage, syncTrackerNow } from "@/lib/history/sync-now";
import { draftPolicyFixes } from "@/lib/plans/policy-fixes";
import { trackerIdSchema } from "./tracker.validation";

/** Owners and admins: syncs the tracker now (lib/history/sync-now.ts). */
export const syncNowAction = authedAction({ name: "history.sync-now", schema: trackerIdSchema }, async (input, { actor, ip }) => {
  // Like a scheduled sync, it drafts the fixes of the team's "draft the fix" checks.
  const outcome = await syncTrackerNow(actor, input.trackerId, { ip }, { afterSync: draftPolicyFixes });
  // Whatever the outcome, the tracker's state on these pages changed.
  revalidatePath("/settings");
  revalidatePath("/changes");
  revalidatePath("/plans");
  return { message: syncNowMessage(outcome) };
});
