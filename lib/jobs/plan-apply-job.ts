import "server-only";
import { runDuePlans } from "@/lib/plans/run";
import type { JobDefinition } from "./registry";

/**
 * Applies the change plans that are due (lib/plans/run.ts): started by a person and not yet
 * claimed, or left by an applier that stopped (a shutdown, a deploy, a killed instance). Sent at
 * once when someone starts a plan, and every minute for the ones an applier left.
 *
 * A run applies several plans at once and takes up new ones while it works; each plan's lease
 * makes one applier at a time and each step runs at most once, so runs on several instances at
 * once do no harm, and none waits for another: a dead instance's job row blocks nothing.
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
  // A run stops between steps a little before this and the engine sends the next one at once: a long
  // plan (a 5,000-step one waits out many rate-limit windows) goes on across runs, on any instance.
  expireInSeconds: 5 * 60,
  retryLimit: 0,
  // A restarted instance takes up at once a plan that the process it replaces released.
  sendAtStart: true,
  async run({ signal, deadline }) {
    return runDuePlans({ signal, deadline });
  },
};
