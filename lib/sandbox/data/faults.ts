import type { EmsEvent } from "../api/resources";
import { SeededRandom } from "./random";

/**
 * Faults planted in the generated data, for the portal's health checks to find (issue 13): the
 * mistakes real teams make when they wire events to their systems. Random generation makes most of
 * them now and then (disabled webhooks, plain-HTTP URLs, groups without notification emails, insert
 * without delete); the plan below makes sure that each kind is present in every dataset of ten groups
 * and four events or more, in the same place for the same seed.
 *
 * The plan is small and made up front from the seed, the group count and the events, so lazily
 * generated groups (100,000-group datasets make a group only when it is shown) still agree with
 * each other about the faults that span groups (the same URL in two groups, a shared credential).
 */
export const PLANTED_FAULTS = [
  /** a webhook posting to `http://` */
  "http-url",
  /** the same URL and trigger in two groups: double deliveries */
  "duplicate-url",
  /** an `X-Api-Key` header with the same value in three groups (group and webhook headers) */
  "shared-credential",
  /** a group sending session inserts but no session deletions */
  "insert-without-delete",
  /** an enabled webhook whose events are all closed or cancelled */
  "past-events-only",
  /** a disabled webhook whose events include a live one */
  "disabled-live",
  /** a group with no notification emails */
  "no-emails",
] as const;
export type PlantedFault = (typeof PLANTED_FAULTS)[number];

/** How many groups each planted fault takes. */
const GROUPS_PER_FAULT: Record<PlantedFault, number> = {
  "http-url": 1,
  "duplicate-url": 2,
  "shared-credential": 3,
  "insert-without-delete": 1,
  "past-events-only": 1,
  "disabled-live": 1,
  "no-emails": 1,
};
const GROUPS_NEEDED = Object.values(GROUPS_PER_FAULT).reduce((sum, groups) => sum + groups, 0);
/** Planted faults go to groups among the first this many, so the first pages of a listing show them. */
const PLANT_WITHIN = 40;

export type FaultPlan = {
  /** events that no webhook lists in `event_ids` (and the only catch-all webhooks are disabled) */
  uncoveredEventIds: readonly number[];
  /** the other events: what webhooks choose their `event_ids` from */
  coverableEventIds: readonly number[];
  /** coverable events that are live */
  liveEventIds: readonly number[];
  /** coverable events that are closed or cancelled */
  pastEventIds: readonly number[];
  /** group index -> the faults planted there, in the order they take its webhooks */
  byGroupIndex: ReadonlyMap<number, readonly PlantedFault[]>;
  duplicateUrl: string;
  sharedCredential: { key: string; value: string };
};

export function planFaults(groupCount: number, seed: number, events: readonly EmsEvent[]): FaultPlan {
  const random = new SeededRandom(seed, 5);
  // The first event is live (generateEvents cycles through the statuses first): it stays uncovered,
  // with about one in ten of the others; the closed and cancelled ones among the first four never do.
  const uncovered = new Set<number>();
  events.forEach((event, index) => {
    if (index === 0 || (index >= 4 && random.chance(0.1))) uncovered.add(event.id);
  });
  const coverable = events.filter((event) => !uncovered.has(event.id));
  const live = coverable.filter((event) => event.status === "live");
  const past = coverable.filter((event) => event.status === "closed" || event.status === "cancelled");
  const coverableEventIds = coverable.map((event) => event.id);

  const byGroupIndex = new Map<number, PlantedFault[]>();
  if (groupCount >= GROUPS_NEEDED) {
    // Distinct group indexes, shuffled (Fisher-Yates) within the first PLANT_WITHIN groups.
    const slots = Array.from({ length: Math.min(groupCount, PLANT_WITHIN) }, (_, index) => index);
    for (let i = slots.length - 1; i > 0; i--) {
      const j = random.int(0, i);
      [slots[i], slots[j]] = [slots[j], slots[i]];
    }
    let next = 0;
    for (const fault of PLANTED_FAULTS) {
      for (let n = 0; n < GROUPS_PER_FAULT[fault]; n++) {
        const index = slots[next++];
        byGroupIndex.set(index, [...(byGroupIndex.get(index) ?? []), fault]);
      }
    }
  }
  return {
    uncoveredEventIds: [...uncovered],
    coverableEventIds,
    liveEventIds: live.length ? live.map((event) => event.id) : coverableEventIds,
    pastEventIds: past.length ? past.map((event) => event.id) : coverableEventIds,
    byGroupIndex,
    duplicateUrl: `https://hooks.example.com/ems/registrant/${random.token(10)}`,
    sharedCredential: { key: "X-Api-Key", value: `k-${random.token(16)}` },
  };
}
