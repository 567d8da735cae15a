import "server-only";
import { log } from "@/lib/log";
import { pruneExpiredRecords } from "@/lib/retention/prune";
import type { JobDefinition } from "./registry";

/** Deletes expired sign-in attempts, ended sessions and old audit records (lib/retention/prune.ts). */
export const retentionJob: JobDefinition<void> = {
  name: "retention",
  // Hourly, at an odd minute: small batches often, rather than one large one a day.
  schedule: "23 * * * *",
  cronRoute: "/api/cron/retention",
  expireInSeconds: 15 * 60,
  retryLimit: 2,
  async run({ signal, deadline }) {
    const result = await pruneExpiredRecords({ signal, deadline });
    log.info({ event: "retention.pruned", ...result }, "retention: expired records deleted");
    return result;
  },
};
