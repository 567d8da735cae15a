import "server-only";
import { log } from "@/lib/log";
import { pruneExpiredRecords } from "@/lib/retention/prune";
import type { JobDefinition } from "./registry";

/** Deletes expired sign-in attempts, ended sessions, old audit records and old change history (lib/retention/prune.ts). */
export const retentionJob: JobDefinition<void> = {
  name: "retention",
  // Hourly, at an odd minute: small batches often, rather than one large one a day.
  schedule: "23 * * * *",
  cronRoute: {
    path: "/api/cron/retention",
    // Daily on Vercel, not hourly: the Hobby plan runs a cron job at most once a day (hourly needs
    // a paid plan), and a deployment must work on every plan. A day's records take more batches;
    // a run stops at the function's limit and the next day's goes on.
    schedule: "23 3 * * *",
  },
  expireInSeconds: 15 * 60,
  retryLimit: 2,
  async run({ signal, deadline }) {
    const result = await pruneExpiredRecords({ signal, deadline });
    log.info({ event: "retention.pruned", ...result }, "retention: expired records deleted");
    return result;
  },
};
