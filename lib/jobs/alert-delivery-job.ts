import "server-only";
import { deliverDue } from "@/lib/alerts/deliveries";
import { log } from "@/lib/log";
import type { JobDefinition } from "./registry";

/**
 * Sends the alerts that are due (lib/alerts/deliveries.ts): those whose first attempt, made when
 * they were queued, failed and whose retry time has come. Claims each delivery before sending it,
 * so overlapping runs (another instance, the cron route) never send one twice.
 */
export const alertDeliveryJob: JobDefinition<void> = {
  name: "alert-delivery",
  // Every minute: the first retry is due a minute after a failure.
  schedule: "* * * * *",
  cronRoute: {
    path: "/api/cron/alerts",
    // Daily on Vercel: the Hobby plan runs a cron job at most once a day, and refuses to deploy a
    // project whose vercel.json asks for more, so a deployment must declare daily to work on every
    // plan. Alerts are still tried the moment they are queued; only their retries wait for this.
    // On a paid plan, set "* * * * *" here and in vercel.json (tests/jobs/vercel-crons.test.ts).
    schedule: "17 4 * * *",
  },
  expireInSeconds: 10 * 60,
  retryLimit: 1,
  async run({ signal, deadline }) {
    const result = await deliverDue({ signal, deadline });
    if (result.sent + result.retrying + result.failed > 0) log.info({ event: "alerts.delivered", ...result }, "alerts: due deliveries tried");
    return result;
  },
};
