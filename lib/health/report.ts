import "server-only";
import type { Actor, HealthCounts } from "@/lib/auth/session";
import { getRequiredTriggers } from "@/lib/coverage/requirements";
import { prisma } from "@/lib/db/prisma";
import { loadSetup, type SetupOutcome, type SetupSnapshot } from "@/lib/setup/load";
import type { Freshness, ListingFailure, RateBudget } from "@/lib/listing/load";
import { applyMutes, listMutes, type HealthMuteRecord, type SplitFindings } from "./mutes";
import { runHealthChecks } from "./rules";
import type { TriggerKey } from "./setup-data";

export interface HealthReport extends SplitFindings {
  snapshot: SetupSnapshot;
  mutes: HealthMuteRecord[];
  requiredTriggers: TriggerKey[];
  counts: HealthCounts;
  budget: RateBudget | null;
  freshness: Freshness;
}

export type HealthOutcome = ({ kind: "ok" } & HealthReport) | ListingFailure;

/** Unmuted findings by severity. */
export function countFindings(findings: SplitFindings["active"]): HealthCounts {
  const counts: HealthCounts = { errors: 0, warnings: 0, notices: 0 };
  for (const finding of findings) {
    if (finding.severity === "error") counts.errors++;
    else if (finding.severity === "warning") counts.warnings++;
    else counts.notices++;
  }
  return counts;
}

/**
 * The health checks of the account behind this person's own credential: the setup (shared and
 * kept for EMS_COVERAGE_CACHE_SECONDS), the team's required triggers and mutes, and the findings
 * split into shown and muted. The unmuted counts are stored for the navigation (one upsert).
 */
export async function loadHealthReport(actor: Actor, options: { refresh?: boolean; setup?: Promise<SetupOutcome> } = {}): Promise<HealthOutcome> {
  const [setup, requiredTriggers, mutes] = await Promise.all([options.setup ?? loadSetup(actor, { refresh: options.refresh }), getRequiredTriggers(actor), listMutes(actor)]);
  if (setup.kind !== "ok") return setup;
  const findings = runHealthChecks(setup.snapshot.data, { now: new Date(), requiredTriggers });
  const split = applyMutes(findings, mutes);
  const counts = countFindings(split.active);
  await recordHealthSummary(actor, setup.snapshot.fingerprint, counts);
  return { kind: "ok", ...split, snapshot: setup.snapshot, mutes, requiredTriggers, counts, budget: setup.budget, freshness: setup.freshness };
}

/** The navigation's counts for this person (lib/auth/session.ts reads them with the session). */
export async function recordHealthSummary(actor: Pick<Actor, "userId" | "teamId" | "healthCounts">, fingerprint: string, counts: HealthCounts): Promise<void> {
  const data = { teamId: actor.teamId, fingerprint, ...counts, computedAt: new Date() };
  await prisma.healthSummary.upsert({ where: { userId: actor.userId }, create: { userId: actor.userId, ...data }, update: data });
}

/**
 * After a mute or a new requirement: the navigation's counts again, from the shared setup (no API
 * call while it is fresh). A failure leaves the old counts; the next Health page view mends them.
 */
export async function refreshHealthSummary(actor: Actor): Promise<void> {
  await loadHealthReport(actor).catch(() => null);
}
