import { cronRouteFor } from "@/lib/jobs/cron-route";

export const dynamic = "force-dynamic";
/** Vercel's limit for this function, in seconds; no step starts near it, and the next call goes on from the next step. */
export const maxDuration = 300;

/** Vercel Cron (vercel.json): the plan-apply job, guarded by CRON_SECRET. Node hosts run it on the job engine. */
export const GET = cronRouteFor("plan-apply", { maxSeconds: maxDuration });
