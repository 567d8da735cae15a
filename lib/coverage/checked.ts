import type { EmsEvent, WebhookGroup } from "@/lib/ems";
import { utcDay, type SetupData } from "@/lib/setup/setup-data";
import { computeCoverage, type CoverageOptions, type CoverageReport } from "./compute";

/**
 * Coverage of a setup, kept while the setup is the same, as lib/health/checked.ts keeps the health
 * findings: the grid is pure over the data, the UTC day of `now`, the scope and the required
 * triggers, and for 2,000 events × 20,000 webhooks it cost 0.2 to 0.6 s (bench:coverage) on every
 * view of the page, its next pages and its open cells included.
 *
 * A setup is "the same" by identity (lib/setup/load.ts gives the same frozen arrays while every page
 * is the same opened shared answer); one that is not frozen is computed each time. Weak by the
 * groups' and events' arrays. The report, its rows and their arrays are frozen: one report serves
 * many views, and none may change it for the next (the cells were shared already, lib/coverage/compute.ts).
 */
const kept = new WeakMap<readonly WebhookGroup[], WeakMap<readonly EmsEvent[], Map<string, CoverageReport>>>();

/** At most this many reports per setup (a scope and a set of required triggers each, per day). */
const MAX_PER_SETUP = 8;

function frozen(report: CoverageReport): CoverageReport {
  for (const row of report.events) {
    Object.freeze(row.cells);
    Object.freeze(row.requirements);
    Object.freeze(row.counts);
    Object.freeze(row);
  }
  Object.freeze(report.events);
  Object.freeze(report.triggers);
  return Object.freeze(report);
}

/** `computeCoverage(data, options)`, from memory when this setup was computed on the same UTC day with the same options. */
export function checkedCoverage(data: SetupData, options: CoverageOptions): CoverageReport {
  if (!Object.isFrozen(data.groups) || !Object.isFrozen(data.events)) return computeCoverage(data, options);
  const key = `${utcDay(options.now)}\n${options.statuses ?? "open"}\n${(options.requiredTriggers ?? []).join(",")}`;
  let byEvents = kept.get(data.groups);
  if (!byEvents) kept.set(data.groups, (byEvents = new WeakMap()));
  let reports = byEvents.get(data.events);
  if (!reports) byEvents.set(data.events, (reports = new Map()));
  const known = reports.get(key);
  if (known) return known;
  const report = frozen(computeCoverage(data, options));
  if (reports.size >= MAX_PER_SETUP) reports.delete(reports.keys().next().value!);
  reports.set(key, report);
  return report;
}
