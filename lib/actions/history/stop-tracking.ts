"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { stopTracking } from "@/lib/history/trackers";
import { trackerIdSchema } from "./tracker.validation";

/** Owners and admins, after a password (or code) check: deletes the tracker and all its history. */
export const stopTrackingAction = authedAction({ name: "history.stop", schema: trackerIdSchema, recentAuth: true }, async (input, { actor, ip }) => {
  await stopTracking(actor, input, { ip });
  revalidatePath("/settings");
  revalidatePath("/changes");
  return { message: "Tracking stopped; its history was deleted." };
});
