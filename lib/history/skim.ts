import { fieldLabel, valueText, type DescribedChange } from "./describe";
import type { MaskedHeader } from "./records";

/**
 * A change as the feed shows it for skimming: a badge naming its kind, and its before and after
 * as a diff with the changed part marked. Pure. Header values never appear: a header diff names
 * headers only, as lib/history/describe.ts does.
 */

export type BadgeKind = "added" | "removed" | "enabled" | "disabled" | "url" | "headers" | "events" | "name" | "moved" | "triggers" | "changed";

const TRIGGER_FIELDS = new Set(["trigger_object", "trigger_on_insert", "trigger_on_update", "trigger_on_delete", "public_user", "admin_user", "api_call", "any_event"]);

export function changeBadge(change: Pick<DescribedChange, "change" | "field" | "after">): { kind: BadgeKind; label: string } {
  if (change.change === "added") return { kind: "added", label: "Added" };
  if (change.change === "removed") return { kind: "removed", label: "Removed" };
  const field = change.field ?? "";
  if (field === "enabled" && typeof change.after === "boolean") return change.after ? { kind: "enabled", label: "Enabled" } : { kind: "disabled", label: "Disabled" };
  if (field === "url") return { kind: "url", label: "URL" };
  if (field === "headers") return { kind: "headers", label: "Headers" };
  if (field === "event_ids") return { kind: "events", label: "Events" };
  if (field === "name") return { kind: "name", label: "Renamed" };
  if (field === "group_id") return { kind: "moved", label: "Moved" };
  if (TRIGGER_FIELDS.has(field)) return { kind: "triggers", label: "Triggers" };
  const label = fieldLabel(field);
  return { kind: "changed", label: label.charAt(0).toUpperCase() + label.slice(1) };
}

/** A before → after of one text, split where they differ: the shared start and end, and what each side has between. */
export interface TextDiff {
  prefix: string;
  removed: string;
  added: string;
  suffix: string;
}

export function textDiff(before: string, after: string): TextDiff {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  return {
    prefix: before.slice(0, start),
    removed: before.slice(start, before.length - end),
    added: after.slice(start, after.length - end),
    suffix: before.slice(before.length - end),
  };
}

/** What a skim shows of a change's values. */
export type ChangeDiff =
  | { kind: "text"; field: string; diff: TextDiff }
  | { kind: "items"; field: string; added: string[]; removed: string[] }
  | { kind: "values"; field: string; before: string; after: string }
  | { kind: "none" };

const MAX_ITEMS = 8;

function headerItems(before: MaskedHeader[] | null | undefined, after: MaskedHeader[] | null | undefined): { added: string[]; removed: string[] } {
  const old = new Map((before ?? []).map((header) => [header.key.toLowerCase(), header]));
  const now = new Map((after ?? []).map((header) => [header.key.toLowerCase(), header]));
  const added: string[] = [];
  const removed: string[] = [];
  for (const [name, header] of now) {
    const previous = old.get(name);
    if (!previous) added.push(header.key);
    // Same name, another value: named on both sides, its value never shown.
    else if (previous.hash !== header.hash) {
      removed.push(`${previous.key} (old value)`);
      added.push(`${header.key} (new value)`);
    }
  }
  for (const [name, header] of old) if (!now.has(name)) removed.push(header.key);
  return { added, removed };
}

function clipItems(items: string[]): string[] {
  return items.length > MAX_ITEMS ? [...items.slice(0, MAX_ITEMS), `and ${items.length - MAX_ITEMS} more`] : items;
}

/** The before and after of a "changed" entry, marked for a skim; added and removed records have none. */
export function changeDiff(change: Pick<DescribedChange, "change" | "field" | "before" | "after">): ChangeDiff {
  if (change.change !== "changed" || !change.field) return { kind: "none" };
  const field = change.field;
  if (field === "headers") {
    const { added, removed } = headerItems(change.before as MaskedHeader[] | null, change.after as MaskedHeader[] | null);
    return { kind: "items", field, added: clipItems(added), removed: clipItems(removed) };
  }
  if (Array.isArray(change.before) || Array.isArray(change.after)) {
    const label = (item: unknown) => (field === "event_ids" ? `#${String(item)}` : String(item));
    const before = new Set(((change.before as unknown[] | null) ?? []).map(label));
    const after = new Set(((change.after as unknown[] | null) ?? []).map(label));
    return { kind: "items", field, added: clipItems([...after].filter((item) => !before.has(item))), removed: clipItems([...before].filter((item) => !after.has(item))) };
  }
  const before = valueText(field, change.before);
  const after = valueText(field, change.after);
  if (typeof change.before === "string" && typeof change.after === "string") {
    return { kind: "text", field, diff: textDiff(before, after) };
  }
  return { kind: "values", field, before, after };
}
