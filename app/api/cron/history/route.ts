import { cronRouteFor } from "@/lib/jobs/cron-route";

export const dynamic = "force-dynamic";
/** Vercel's limit for this function, in seconds; the tick stops in time and the next call goes on. */
export const maxDuration = 60;

/** Vercel Cron (vercel.json): change history's due syncs, guarded by CRON_SECRET. Node hosts run it on the job engine. */
export const GET = cronRouteFor("history-sync", { maxSeconds: maxDuration });
