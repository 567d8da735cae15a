import { TRIGGER_OBJECTS } from "@/lib/ems/contract";
import { compareTriggerKeys, parseTriggerKey, TRIGGER_ACTIONS, type TriggerKey } from "@/lib/setup/setup-data";

/**
 * Triggers in words: a trigger is an object and an action (`registrant:insert`), the pair a
 * webhook's `trigger_object` and `trigger_on_*` switches choose (docs/ems-api.md §4.1a).
 */

/** Every trigger the contract names, in column order: what a team can require. */
export const ALL_TRIGGER_KEYS: readonly TriggerKey[] = TRIGGER_OBJECTS.flatMap((object) => TRIGGER_ACTIONS.map((action) => `${object}:${action}` as TriggerKey));

const OBJECT_LABELS: Record<string, string> = {
  event: "Event",
  contact: "Contact",
  registrant: "Registrant",
  speaker: "Speaker",
  sponsor: "Sponsor",
  session: "Session",
  session_attendance: "Session attendance",
  registrant_line_item: "Registrant line item",
};

export function isTriggerKey(value: string): value is TriggerKey {
  return ALL_TRIGGER_KEYS.includes(value as TriggerKey);
}

/** "Registrant" (an object outside the contract keeps its own name, in words). */
export function triggerObjectLabel(object: string): string {
  return OBJECT_LABELS[object] ?? object.replaceAll("_", " ");
}

/** "Registrant insert". */
export function triggerLabel(key: TriggerKey): string {
  const parts = parseTriggerKey(key);
  return parts ? `${triggerObjectLabel(parts.object)} ${parts.action}` : key;
}

export function sortTriggerKeys(keys: readonly TriggerKey[]): TriggerKey[] {
  return [...keys].sort(compareTriggerKeys);
}
