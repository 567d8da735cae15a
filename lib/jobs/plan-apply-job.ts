import "server-only";
import { runDuePlans } from "@/lib/plans/run";
import type { JobDefinition } from "./registry";

/**
 * Applies the change plans that are due (lib/plans/run.ts): started by a person and not yet
 * claimed, or left by an applier that stopped (a crash, a deploy). Sent at once when someone starts
 * a plan, and every minute for the ones an applier left. Each plan's lease makes one applier at a
 * time and each step runs at most once, so an overlapping run does no harm.
 */
export const planApplyJob: JobDefinition<void> = {
  name: "plan-apply",
  schedule: "* * * * *",
  cronRoute: {
    path: "/api/cron/plans",
    // Daily on Vercel (the Hobby plan's limit, as alerts': lib/jobs/alert-delivery-job.ts). A plan is
    // applied by the request that starts it (`after()`); this route only resumes one whose function
    // ran out of time. On a paid plan, set "* * * * *" here and in vercel.json.
    schedule: "29 4 * * *",
  },
  // A 1,000-step plan waits for the rate-limit window several times (lib/plans/cost.ts).
  expireInSeconds: 60 * 60,
  retryLimit: 0,
  async run({ signal, deadline }) {
    return runDuePlans({ signal, deadline });
  },
};
