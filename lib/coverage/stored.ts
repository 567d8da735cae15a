import "server-only";
import type { Actor } from "@/lib/access/actor";
import type { Freshness, ListingFailure, RateBudget } from "@/lib/ems-access/shared-read";
import { utcDay, type TriggerKey } from "@/lib/setup/setup-data";
import { loadSetupResult, type SetupFacts, type SetupUpdating } from "@/lib/setup/stored-results";
import { computeCoverage, type CoverageReport } from "./compute";
import { heatmapObjects, heatmapRow, heatRowData, type HeatRowData } from "./heatmap";
import { gapCount, type CoverageRowLike } from "./view";

/**
 * The Coverage page's rows as they are stored per setup (lib/setup/stored-results.ts): per event,
 * what the list filters and sorts by and the row as the page sends it (HeatRowData), not the cells
 * with the webhooks they name. A process that has not read the account's setup shows the page from
 * a few hundred kB; only an open cell's panel, which names webhooks, needs the setup itself.
 */

export interface StoredCoverageRow extends CoverageRowLike {
  heat: HeatRowData;
}

export interface StoredCoverage {
  /** the map's columns (heatmapObjects) */
  objects: readonly string[];
  unplacedWebhooks: number;
  neverFiringWebhooks: number;
  events: readonly StoredCoverageRow[];
  /** events with a gap, and events missing a required trigger, among all */
  withGaps: number;
  failing: number;
}

export type CoverageViewOutcome =
  | {
      kind: "ok";
      coverage: StoredCoverage;
      setup: SetupFacts;
      budget: RateBudget | null;
      freshness: Freshness;
      source: "stored" | "computed";
      /** A plan is being applied to the account: the rows as they were then (the page says so). */
      updating: SetupUpdating | null;
    }
  | ListingFailure;

/** The report's rows as stored: what the page reads of them, and nothing of the webhooks. */
export function storedCoverage(report: CoverageReport, required: readonly TriggerKey[]): StoredCoverage {
  const objects = heatmapObjects(report);
  const requiredSet = new Set(required);
  const events = report.events.map((row): StoredCoverageRow => ({
    event: { id: row.event.id, name: row.event.name, start_date: row.event.start_date, start_time: row.event.start_time },
    requirementsMet: row.requirementsMet,
    counts: { none: row.counts.none, degraded: row.counts.degraded },
    heat: heatRowData(row, heatmapRow(row, report.triggers, objects, requiredSet)),
  }));
  return {
    objects,
    unplacedWebhooks: report.unplacedWebhooks,
    neverFiringWebhooks: report.neverFiringWebhooks,
    events,
    withGaps: events.filter((row) => gapCount(row) > 0).length,
    failing: events.filter((row) => !row.requirementsMet).length,
  };
}

/** Coverage of this person's own credential's account, for a scope and the team's required triggers. */
export async function loadCoverageView(actor: Actor, scope: "open" | "all", required: readonly TriggerKey[]): Promise<CoverageViewOutcome> {
  const now = new Date();
  const result = await loadSetupResult<StoredCoverage>(actor, {
    kind: "coverage",
    // 2: with neverFiringWebhooks.
    format: 2,
    optionsKey: `${utcDay(now)}\n${scope}\n${required.join(",")}`,
    // Not `checkedCoverage`: its memo would keep the whole report (8 to 13 MB for 2,000 events) beside the rows kept here.
    compute: (snapshot) => storedCoverage(computeCoverage(snapshot.data, { now, statuses: scope, requiredTriggers: required }), required),
  });
  if (result.kind !== "ok") return result;
  return {
    kind: "ok",
    coverage: result.value,
    setup: result.setup,
    budget: result.budget,
    freshness: result.freshness,
    source: result.source,
    updating: result.updating,
  };
}
