import { cronRouteFor } from "@/lib/jobs/cron-route";

export const dynamic = "force-dynamic";
/** Vercel's limit for this function, in seconds; no new batch of sends starts near it, and the next call goes on. */
export const maxDuration = 60;

/** Vercel Cron (vercel.json): the alert-delivery job, guarded by CRON_SECRET. Node hosts run it on the job engine. */
export const GET = cronRouteFor("alert-delivery", { maxSeconds: maxDuration });
