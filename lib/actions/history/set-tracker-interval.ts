"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { intervalLabel } from "@/lib/history/sync-intervals";
import { setTrackerInterval } from "@/lib/history/trackers";
import { setTrackerIntervalSchema } from "./tracker.validation";

/** Owners and admins: how often the tracker syncs. */
export const setTrackerIntervalAction = authedAction({ name: "history.set-interval", schema: setTrackerIntervalSchema }, async (input, { actor, ip }) => {
  await setTrackerInterval(actor, input, { ip });
  revalidatePath("/settings");
  return { message: `It now syncs ${intervalLabel(input.intervalMinutes)}.` };
});
