"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { takeOverTracker } from "@/lib/history/trackers";
import { trackerIdSchema } from "./tracker.validation";

/** Owners and admins: the tracker runs with their own credential (same account) from now on, and resumes. */
export const takeOverTrackerAction = authedAction({ name: "history.take-over", schema: trackerIdSchema }, async (input, { actor, ip }) => {
  await takeOverTracker(actor, input, { ip });
  revalidatePath("/settings");
  return { message: "Tracking runs with your credentials and syncs within a minute." };
});
