import type { SetupData } from "@/lib/setup/setup-data";
import { DEFAULT_ACCOUNTS } from "@/lib/sandbox/core/config";
import { datasetFor } from "@/lib/sandbox/data/datasets";

/**
 * The demo account as lib/setup/load.ts gives it, for the tests of what is kept per setup
 * (lib/health/checked.ts, lib/coverage/checked.ts): frozen, as while its pages are opened shared
 * answers, or not, as just asked of the API.
 */
export function demoSetup(freeze: boolean): SetupData {
  const dataset = datasetFor(DEFAULT_ACCOUNTS[0]);
  const groups = Array.from({ length: dataset.groups.size }, (_, index) => ({ ...dataset.groups.row(index), webhooks: dataset.webhooksOf(index) }));
  const events = Array.from({ length: dataset.events.size }, (_, index) => dataset.events.row(index));
  return freeze ? { groups: Object.freeze(groups), events: Object.freeze(events) } : { groups, events };
}

/** Required triggers, and three times: two of one UTC day, one of the next. */
export const REQUIRED = ["registrant:insert", "registrant:delete"] as const;
export const MORNING = new Date("2025-06-15T00:30:00Z");
export const EVENING = new Date("2025-06-15T23:30:00Z");
export const NEXT_DAY = new Date("2025-06-16T00:30:00Z");
