"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { startTracking } from "@/lib/history/trackers";
import { syncTracker } from "@/lib/history/sync";
import { startTrackingSchema } from "./tracker.validation";

/** Owners and admins: tracks the account behind their own credential, and takes its first snapshot now. */
export const startTrackingAction = authedAction({ name: "history.start", schema: startTrackingSchema }, async (input, { actor, ip }) => {
  const tracker = await startTracking(actor, input, { ip });
  const first = await syncTracker(tracker.id, { trigger: "manual", force: true });
  revalidatePath("/settings");
  revalidatePath("/changes");
  return {
    message:
      first.status === "ok"
        ? "Tracking is on. The first snapshot is stored; changes from now on show under Changes."
        : `Tracking is on. ${"message" in first ? first.message : ""}`.trim(),
  };
});
