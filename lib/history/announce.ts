import "server-only";
import { queueAlerts } from "@/lib/alerts/deliveries";
import { prisma } from "@/lib/db/prisma";
import type { Finding } from "@/lib/health/rules";
import { portalOriginFor } from "@/lib/portal-origin";
import { describeChange } from "./describe";
import type { RecordChange } from "./diff";
import { plural } from "@/lib/text/plural";

/**
 * After a sync: one alert for the team when it found changes or a health check newly failing at
 * warning or error (lib/alerts sends it by email and to Slack, and retries). Never for the first
 * sync, whose "changes" are the whole account. The lines name records, fields and hosts only:
 * `forAlert` keeps URLs to their host, and header values are never in a change's words.
 */
export async function announceSync(input: {
  trackerId: string;
  teamId: string;
  syncId: string;
  changes: readonly RecordChange[];
  /** The sync's group names by id (the ones it stored with the changes). */
  groupNames: ReadonlyMap<number, string | null>;
  newlyFailing: readonly Finding[];
  baseline: boolean;
  /** Stops the alert's first send (the job stopping, or its deadline); the delivery job retries it. */
  signal: AbortSignal;
}): Promise<void> {
  if (input.baseline || (input.changes.length === 0 && input.newlyFailing.length === 0)) return;
  const tracker = await prisma.changeTracker.findUnique({ where: { id: input.trackerId }, select: { accountLabel: true } });
  if (!tracker) return;
  const lines = [
    ...input.changes.map((change) =>
      describeChange({ ...change, groupName: change.groupId === null ? null : (input.groupNames.get(change.groupId) ?? null) }, { forAlert: true }),
    ),
    ...input.newlyFailing.map((finding) => `Health check now failing (${finding.severity}): ${finding.message}`),
  ];
  const parts = [
    input.changes.length > 0 ? plural(input.changes.length, "change") : null,
    input.newlyFailing.length > 0 ? plural(input.newlyFailing.length, "new health finding") : null,
  ].filter(Boolean);
  // No request here (a sync runs in a job): the configured address, on Vercel its own.
  const base = portalOriginFor(null);
  await queueAlerts(
    {
      trackerId: input.trackerId,
      teamId: input.teamId,
      syncId: input.syncId,
      kind: input.changes.length > 0 && input.newlyFailing.length > 0 ? "both" : input.changes.length > 0 ? "changes" : "health",
      subject: `${parts.join(" and ")} in the webhook setup of ${tracker.accountLabel}`,
      lines,
      link: new URL(input.changes.length > 0 ? "/changes" : "/health", base).toString(),
    },
    { signal: input.signal },
  );
}
