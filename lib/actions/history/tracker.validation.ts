import { z } from "zod";
import { SYNC_INTERVALS } from "@/lib/history/sync-intervals";

/** A tracker named by a form: a cuid, nothing else (a crafted value is refused before any lookup). */
export const trackerIdSchema = z.object({
  trackerId: z.string().regex(/^[a-z0-9]{20,32}$/, "That tracker no longer exists."),
});

const interval = z.coerce
  .number({ error: "Choose how often to sync." })
  .refine((minutes) => (SYNC_INTERVALS as readonly number[]).includes(minutes), "Choose how often to sync.");

export const startTrackingSchema = z.object({ intervalMinutes: interval });

export const setTrackerIntervalSchema = trackerIdSchema.extend({ intervalMinutes: interval });
