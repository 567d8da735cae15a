"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { pauseTracker } from "@/lib/history/trackers";
import { trackerIdSchema } from "./tracker.validation";

/** Owners and admins: no scheduled syncs until someone resumes it. */
export const pauseTrackerAction = authedAction({ name: "history.pause", schema: trackerIdSchema }, async (input, { actor, ip }) => {
  await pauseTracker(actor, input, { ip });
  revalidatePath("/settings");
  return { message: "Tracking is paused. Its history stays." };
});
