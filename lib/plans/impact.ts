import { computeCoverage, type CellState } from "@/lib/coverage/compute";
import { checkedHealth } from "@/lib/health/checked";
import { runHealthChecks, type Finding, type RuleContext } from "@/lib/health/rules";
import { labelOf, type SetupData, type TriggerKey } from "@/lib/setup/setup-data";
import { triggerLabel } from "@/lib/setup/triggers";
import type { DraftOperation } from "./operations";
import { simulatePlan } from "./simulate";
import { plural } from "@/lib/text/plural";

/**
 * What a plan does to the account's health and coverage, computed with the same rules as the Health
 * and Coverage pages on the setup before and after the plan (lib/plans/simulate.ts). Pure.
 */

export interface CoverageChange {
  eventId: number;
  eventName: string;
  live: boolean;
  trigger: TriggerKey;
  before: CellState;
  after: CellState;
}

export interface PlanImpact {
  /** Findings today that the plan makes go away. */
  fixed: Finding[];
  /** Findings the plan brings. */
  added: Finding[];
  /** Open events' trigger cells that stop being served by a healthy webhook. */
  coverageLost: CoverageChange[];
  /** Cells that become served. */
  coverageGained: CoverageChange[];
  /** One or two sentences for the top of the plan page. */
  summary: string[];
}

const findingId = (finding: Finding) => `${finding.ruleId}\u0000${finding.key}`;

function cellStates(data: SetupData, context: RuleContext) {
  const report = computeCoverage(data, { now: context.now, requiredTriggers: context.requiredTriggers });
  const states = new Map<string, { eventId: number; eventName: string; live: boolean; trigger: TriggerKey; state: CellState }>();
  for (const row of report.events) {
    row.cells.forEach((cell) => {
      states.set(`${row.event.id}\u0000${cell.trigger}`, {
        eventId: row.event.id,
        eventName: labelOf(row.event),
        live: row.live,
        trigger: cell.trigger,
        state: cell.state,
      });
    });
  }
  return states;
}

function coverageSentence(lost: readonly CoverageChange[]): string | null {
  if (lost.length === 0) return null;
  const live = lost.filter((change) => change.live);
  const first = live[0] ?? lost[0];
  const what = `${first.live ? "live " : ""}event “${first.eventName}” loses its ${first.after === "none" ? "only" : "last healthy"} ${triggerLabel(first.trigger).toLowerCase()} webhook`;
  const rest = lost.length - 1;
  return rest === 0
    ? `${what[0].toUpperCase()}${what.slice(1)}.`
    : `${what[0].toUpperCase()}${what.slice(1)}, and ${plural(rest, "other event trigger")} lose coverage too.`;
}

/** The impact of `operations` on the setup `before` (the setup as the Health page reads it). */
export function planImpact(before: SetupData, operations: readonly DraftOperation[], context: RuleContext): PlanImpact {
  const after = simulatePlan(before, operations);
  // Today's findings are the ones the Health page keeps for this setup (the plan page read them just before).
  const findingsBefore = checkedHealth(before, context);
  const findingsAfter = runHealthChecks(after, context);
  const beforeIds = new Set(findingsBefore.map(findingId));
  const afterIds = new Set(findingsAfter.map(findingId));
  const fixed = findingsBefore.filter((finding) => !afterIds.has(findingId(finding)));
  const added = findingsAfter.filter((finding) => !beforeIds.has(findingId(finding)));

  const cellsBefore = cellStates(before, context);
  const cellsAfter = cellStates(after, context);
  const coverageLost: CoverageChange[] = [];
  const coverageGained: CoverageChange[] = [];
  for (const [key, was] of cellsBefore) {
    const now = cellsAfter.get(key)?.state ?? "none";
    if (was.state === "ok" && now !== "ok") coverageLost.push({ ...was, before: was.state, after: now });
  }
  for (const [key, now] of cellsAfter) {
    const was = cellsBefore.get(key)?.state ?? "none";
    if (now.state === "ok" && was !== "ok") coverageGained.push({ ...now, before: was, after: now.state });
  }
  // Live events first: they are the ones a lost webhook hurts today.
  coverageLost.sort((a, b) => Number(b.live) - Number(a.live) || a.eventName.localeCompare(b.eventName));

  const health = `Fixes ${fixed.length === 0 ? "no findings" : plural(fixed.length, "finding")}, adds ${added.length === 0 ? "none" : plural(added.length, "finding")}.`;
  const coverage = coverageSentence(coverageLost);
  return { fixed, added, coverageLost, coverageGained, summary: coverage ? [health, coverage] : [health] };
}
