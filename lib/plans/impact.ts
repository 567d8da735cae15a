import { computeCoverage, type CellState, type EventCoverage } from "@/lib/coverage/compute";
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

/**
 * Each open event's row of Coverage, by its id. The rows are compared cell by cell where they are:
 * a copy of every cell with its event's name, twice (before and after), was 40,000 short-lived
 * objects and keys for 2,000 events beside the two reports, on a plan page of a large account.
 */
function coverageRows(data: SetupData, context: RuleContext): Map<number, EventCoverage> {
  const report = computeCoverage(data, { now: context.now, requiredTriggers: context.requiredTriggers });
  return new Map(report.events.map((row) => [row.event.id, row]));
}

/** A cell's state in a row ("none": no such event or column there). */
const stateIn = (row: EventCoverage | undefined, trigger: TriggerKey): CellState => row?.cells.find((cell) => cell.trigger === trigger)?.state ?? "none";

/** The cells healthy ("ok") in `from` that are not in `to`, in `from`'s order. */
function cellsNoLongerOk(from: Map<number, EventCoverage>, to: Map<number, EventCoverage>, direction: "lost" | "gained"): CoverageChange[] {
  const changes: CoverageChange[] = [];
  for (const [eventId, row] of from) {
    for (const cell of row.cells) {
      if (cell.state !== "ok") continue;
      const other = stateIn(to.get(eventId), cell.trigger);
      if (other === "ok") continue;
      const [before, after] = direction === "lost" ? [cell.state, other] : [other, cell.state];
      changes.push({ eventId, eventName: labelOf(row.event), live: row.live, trigger: cell.trigger, before, after });
    }
  }
  return changes;
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

  const rowsBefore = coverageRows(before, context);
  const rowsAfter = coverageRows(after, context);
  const coverageLost = cellsNoLongerOk(rowsBefore, rowsAfter, "lost");
  const coverageGained = cellsNoLongerOk(rowsAfter, rowsBefore, "gained");
  // Live events first: they are the ones a lost webhook hurts today.
  coverageLost.sort((a, b) => Number(b.live) - Number(a.live) || a.eventName.localeCompare(b.eventName));

  const health = `Fixes ${fixed.length === 0 ? "no findings" : plural(fixed.length, "finding")}, adds ${added.length === 0 ? "none" : plural(added.length, "finding")}.`;
  const coverage = coverageSentence(coverageLost);
  return { fixed, added, coverageLost, coverageGained, summary: coverage ? [health, coverage] : [health] };
}
