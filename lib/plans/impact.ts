import { computeCoverage, type CellState } from "@/lib/coverage/compute";
import type { EmsEvent } from "@/lib/ems";
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

/** An open event's cells as a plan's impact compares them: their states, column by column. */
interface EventCells {
  event: EmsEvent;
  live: boolean;
  /** The report's columns (one array shared by every event). */
  triggers: readonly TriggerKey[];
  states: CellState[];
}

/**
 * Each open event's cell states, by its id: all the impact needs of a Coverage report. The report
 * (8 to 13 MB for 2,000 events, its rows, cells and webhook lists) is garbage as soon as this
 * returns, so the one after the plan is not computed beside it; and only the changed cells become
 * objects (a copy of every cell with its event's name, before and after, was two per cell of the grid).
 */
function cellStates(data: SetupData, context: RuleContext): Map<number, EventCells> {
  const report = computeCoverage(data, { now: context.now, requiredTriggers: context.requiredTriggers });
  const rows = new Map<number, EventCells>();
  for (const row of report.events) rows.set(row.event.id, { event: row.event, live: row.live, triggers: report.triggers, states: row.cells.map((cell) => cell.state) });
  return rows;
}

/** A cell's state in an event's row ("none": no such event or column there). */
function stateIn(row: EventCells | undefined, trigger: TriggerKey): CellState {
  const column = row ? row.triggers.indexOf(trigger) : -1;
  return column < 0 ? "none" : row!.states[column];
}

/** The cells healthy ("ok") in `from` that are not in `to`, in `from`'s order. */
function cellsNoLongerOk(from: Map<number, EventCells>, to: Map<number, EventCells>, direction: "lost" | "gained"): CoverageChange[] {
  const changes: CoverageChange[] = [];
  for (const [eventId, row] of from) {
    row.states.forEach((state, column) => {
      if (state !== "ok") return;
      const trigger = row.triggers[column];
      const other = stateIn(to.get(eventId), trigger);
      if (other === "ok") return;
      const [before, after] = direction === "lost" ? [state, other] : [other, state];
      changes.push({ eventId, eventName: labelOf(row.event), live: row.live, trigger, before, after });
    });
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

  const cellsBefore = cellStates(before, context);
  const cellsAfter = cellStates(after, context);
  const coverageLost = cellsNoLongerOk(cellsBefore, cellsAfter, "lost");
  const coverageGained = cellsNoLongerOk(cellsAfter, cellsBefore, "gained");
  // Live events first: they are the ones a lost webhook hurts today.
  coverageLost.sort((a, b) => Number(b.live) - Number(a.live) || a.eventName.localeCompare(b.eventName));

  const health = `Fixes ${fixed.length === 0 ? "no findings" : plural(fixed.length, "finding")}, adds ${added.length === 0 ? "none" : plural(added.length, "finding")}.`;
  const coverage = coverageSentence(coverageLost);
  return { fixed, added, coverageLost, coverageGained, summary: coverage ? [health, coverage] : [health] };
}
