import "server-only";
import type { Actor, HealthCounts } from "@/lib/access/actor";
import { getRequiredTriggers } from "@/lib/setup/requirements";
import { prisma } from "@/lib/db/prisma";
import { loadSetup, type SetupOutcome, type SetupSnapshot } from "@/lib/setup/load";
import type { Freshness, ListingFailure, RateBudget } from "@/lib/ems-access/shared-read";
import { applyMutes, listMutes, type HealthMuteRecord, type SplitFindings } from "./mutes";
import { checkedHealth } from "./checked";
import type { TriggerKey } from "@/lib/setup/setup-data";

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
 * `setup` is a load already under way (a page that shows it too, or a refresh).
 */
export async function loadHealthReport(actor: Actor, options: { setup?: Promise<SetupOutcome> } = {}): Promise<HealthOutcome> {
  const report = await readHealthReport(actor, options);
  if (report.kind === "ok") await recordHealthSummary(actor, report.snapshot.fingerprint, report.counts);
  return report;
}

/**
 * The same report, only read: nothing stored. For a page that uses the findings without being a
 * view of Health (a plan's impact, a "Fix…" form): viewing a plan writes nothing.
 */
export async function readHealthReport(actor: Actor, options: { setup?: Promise<SetupOutcome> } = {}): Promise<HealthOutcome> {
  const [setup, requiredTriggers, mutes] = await Promise.all([options.setup ?? loadSetup(actor), getRequiredTriggers(actor), listMutes(actor)]);
  if (setup.kind !== "ok") return setup;
  const findings = checkedHealth(setup.snapshot.data, { now: new Date(), requiredTriggers });
  const split = applyMutes(findings, mutes);
  const counts = countFindings(split.active);
  return { kind: "ok", ...split, snapshot: setup.snapshot, mutes, requiredTriggers, counts, budget: setup.budget, freshness: setup.freshness };
}

/**
 * The navigation's counts for this person (lib/auth/session.ts reads them with the session),
 * written only when they changed: page views read, they rarely write.
 */
export async function recordHealthSummary(actor: Pick<Actor, "userId" | "teamId" | "healthCounts">, fingerprint: string, counts: HealthCounts): Promise<void> {
  const known = actor.healthCounts;
  if (known && known.errors === counts.errors && known.warnings === counts.warnings && known.notices === counts.notices) return;
  const data = { teamId: actor.teamId, fingerprint, ...counts, computedAt: new Date() };
  await prisma.healthSummary.upsert({ where: { userId: actor.userId }, create: { userId: actor.userId, ...data }, update: data });
}

/**
 * After a mute or an unmute: the acting person's counts computed again now, from the shared setup
 * (no EMS call while the team's copy is fresh), and given to every teammate reading the same
 * account, so no navigation badge blinks out or shows a stale number after the change. Teammates
 * on another account (another credential) are forgotten: their next view stores theirs.
 */
export async function recountTeamHealth(actor: Actor): Promise<void> {
  const report = await loadHealthReport(actor);
  if (report.kind !== "ok") {
    await forgetTeamHealthCounts(actor);
    return;
  }
  const { fingerprint } = report.snapshot;
  await prisma.$transaction([
    prisma.healthSummary.updateMany({ where: { teamId: actor.teamId, fingerprint, userId: { not: actor.userId } }, data: { ...report.counts, computedAt: new Date() } }),
    prisma.healthSummary.deleteMany({ where: { teamId: actor.teamId, fingerprint: { not: fingerprint } } }),
  ]);
}

/**
 * After a change that moves every member's counts (a mute, an unmute, new required triggers): the
 * team's stored counts are dropped, so no badge shows a stale number; each member's next Health,
 * Coverage-refresh or event page view stores theirs again, without a call of its own.
 */
export async function forgetTeamHealthCounts(actor: Pick<Actor, "teamId">): Promise<void> {
  await prisma.healthSummary.deleteMany({ where: { teamId: actor.teamId } });
}
