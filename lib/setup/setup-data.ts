import type { EmsEvent, Webhook, WebhookGroup } from "@/lib/ems";
import { TRIGGER_OBJECTS } from "@/lib/ems/contract";

/**
 * The account's setup as the health checks and the coverage grid read it, and the domain rules
 * both share (docs/ems-api.md §4.1a, §4.2, §7). Pure: no I/O, no clock (callers pass `now`).
 *
 * Every field of a record but `id` may be missing (the listing was asked for fewer fields, or the
 * service left it out). Missing means unknown, never false: a helper that cannot tell answers
 * `null` or "unknown", and the callers neither count an unknown as a problem nor claim it is fine.
 */
export interface SetupData {
  /** every webhook group of the account, each with `webhooks` (from groups?expand=webhooks; a webhook's group is the group it is nested in) */
  groups: readonly WebhookGroup[];
  /** every event: id, name, status (live|draft|closed|cancelled), start_date, end_date, timezone… (any field may be missing = unknown) */
  events: readonly EmsEvent[];
}

export type TriggerAction = "insert" | "update" | "delete";
/** A trigger object and an action: "registrant:insert". */
export type TriggerKey = `${string}:${TriggerAction}`;

export const TRIGGER_ACTIONS: readonly TriggerAction[] = ["insert", "update", "delete"];

const ACTION_FLAG = {
  insert: "trigger_on_insert",
  update: "trigger_on_update",
  delete: "trigger_on_delete",
} as const satisfies Record<TriggerAction, keyof Webhook>;

export function triggerKey(object: string, action: TriggerAction): TriggerKey {
  return `${object}:${action}`;
}

/** Splits "registrant:insert"; null for a string that is not a trigger key. */
export function parseTriggerKey(key: string): { object: string; action: TriggerAction } | null {
  const colon = key.lastIndexOf(":");
  if (colon <= 0) return null;
  const action = key.slice(colon + 1);
  return TRIGGER_ACTIONS.includes(action as TriggerAction) ? { object: key.slice(0, colon), action: action as TriggerAction } : null;
}

const OBJECT_RANK = new Map<string, number>(TRIGGER_OBJECTS.map((object, index) => [object, index]));

/**
 * The order of trigger columns everywhere: the contract's objects first (TRIGGER_OBJECTS order),
 * then objects the contract does not know yet, alphabetically; within an object insert, update, delete.
 */
export function compareTriggerKeys(a: TriggerKey, b: TriggerKey): number {
  const left = parseTriggerKey(a);
  const right = parseTriggerKey(b);
  if (!left || !right) return a < b ? -1 : a > b ? 1 : 0;
  if (left.object !== right.object) {
    const leftRank = OBJECT_RANK.get(left.object) ?? Number.MAX_SAFE_INTEGER;
    const rightRank = OBJECT_RANK.get(right.object) ?? Number.MAX_SAFE_INTEGER;
    if (leftRank !== rightRank) return leftRank - rightRank;
    return left.object < right.object ? -1 : 1;
  }
  return TRIGGER_ACTIONS.indexOf(left.action) - TRIGGER_ACTIONS.indexOf(right.action);
}

/** Whether the webhook sends `action` changes: true, false, or null when `trigger_on_*` is missing. */
export function sendsAction(hook: Webhook, action: TriggerAction): boolean | null {
  return hook[ACTION_FLAG[action]] ?? null;
}

/**
 * The trigger keys a webhook may fire on: its object with every action whose switch is not false
 * (a missing switch may be on). Empty when the object is unknown: it cannot be placed in a column.
 */
export function possibleTriggers(hook: Webhook): readonly TriggerKey[] {
  const object = hook.trigger_object;
  if (!object) return NO_TRIGGERS;
  // One shared array per object and set of switches: 20,000 webhooks use a few dozen of them, and
  // reading one allocates nothing.
  const mask = (hook.trigger_on_insert === false ? 0 : 1) | (hook.trigger_on_update === false ? 0 : 2) | (hook.trigger_on_delete === false ? 0 : 4);
  let byMask = triggersByObject.get(object);
  if (!byMask) {
    byMask = new Array(8);
    // Bounded: trigger objects come from the API, and an odd account must not grow it without end.
    if (triggersByObject.size < MAX_CACHED_OBJECTS) triggersByObject.set(object, byMask);
  }
  return (byMask[mask] ??= Object.freeze(TRIGGER_ACTIONS.filter((_, bit) => mask & (1 << bit)).map((action) => triggerKey(object, action))));
}

const NO_TRIGGERS: readonly TriggerKey[] = Object.freeze([]);
const MAX_CACHED_OBJECTS = 512;
/** trigger object -> switch mask (insert 1, update 2, delete 4) -> its trigger keys */
const triggersByObject = new Map<string, (readonly TriggerKey[] | undefined)[]>();

/** False only when the webhook is known to be disabled: a missing `enabled` may be on. */
export function mayBeEnabled(hook: Webhook): boolean {
  return hook.enabled !== false;
}

/** At least one actor switch (public user, admin user, API call) is not known to be off. */
export function hasPossibleActor(hook: Webhook): boolean {
  return hook.public_user !== false || hook.admin_user !== false || hook.api_call !== false;
}

/**
 * Which events a webhook fires for, as far as its fields tell:
 * - `all`: `any_event` is true;
 * - `listed`: `any_event` is false and `event_ids` is known, or `any_event` is missing but
 *   `event_ids` names events (a catch-all webhook has no use for a list);
 * - `unknown`: anything else (both missing, or `any_event` missing with an empty list).
 */
export type EventScope = { kind: "all" } | { kind: "listed"; eventIds: readonly number[] } | { kind: "unknown" };

const ALL_EVENTS: EventScope = Object.freeze({ kind: "all" });
const UNKNOWN_EVENTS: EventScope = Object.freeze({ kind: "unknown" });

export function eventScope(hook: Webhook): EventScope {
  if (hook.any_event === true) return ALL_EVENTS;
  const ids = hook.event_ids;
  if (ids && (hook.any_event === false || ids.length > 0)) return { kind: "listed", eventIds: ids };
  return UNKNOWN_EVENTS;
}

/** "YYYY-MM-DD" of `now` in UTC: the day the health checks judge "ended" against. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

const DATE_PREFIX = /^(\d{4}-\d{2}-\d{2})/;

/**
 * An event has ended when it is closed or cancelled, or its end date (UTC calendar day) is before
 * `today`. A missing status and end date mean unknown: not ended.
 */
export function isEnded(event: EmsEvent, today: string): boolean {
  if (event.status === "closed" || event.status === "cancelled") return true;
  const end = event.end_date ? DATE_PREFIX.exec(event.end_date.trim())?.[1] : undefined;
  return end !== undefined && end < today;
}

/** Open: upcoming or live, i.e. not ended (which includes cancelled). */
export function isOpen(event: EmsEvent, today: string): boolean {
  return !isEnded(event, today);
}

/** Live: status `live` and not past its end date. A live event whose end date passed is over. */
export function isLive(event: EmsEvent, today: string): boolean {
  return event.status === "live" && !isEnded(event, today);
}

export type UrlParts = {
  /** lower-cased scheme without ":", e.g. "https" */
  scheme: string;
  /** host without credentials or port */
  host: string;
  /**
   * scheme://host[:port]: no credentials, path, query or fragment. Chat and automation services
   * (Slack, Teams, Zapier) carry their secret token in the path, so a finding never shows it.
   */
  display: string;
};

/** Scheme, then the authority: up to the first "/", "?", "#" or "\" (which parsers read as "/"). */
const URL_PARTS = /^\s*([a-z][a-z0-9+.-]*):\/\/([^/?#\\]*)/i;

/**
 * The parts of a webhook URL safe to show. A regular expression rather than `new URL`: the coverage
 * grid reads 20,000 URLs per refresh and only needs these parts. Credentials end at the authority's
 * LAST "@", as URL parsers read it (`https://user:p@ss@host/` is host "host"). Null when the URL is
 * missing or has no scheme and host.
 */
export function urlParts(url: string | undefined): UrlParts | null {
  if (!url) return null;
  const match = URL_PARTS.exec(url);
  if (!match) return null;
  const scheme = match[1].toLowerCase();
  const authority = match[2];
  const hostAndPort = authority.slice(authority.lastIndexOf("@") + 1).toLowerCase();
  if (!hostAndPort) return null;
  const portAt = hostAndPort.startsWith("[") ? hostAndPort.indexOf("]") + 1 : hostAndPort.indexOf(":");
  const host = portAt > 0 ? hostAndPort.slice(0, portAt) : hostAndPort;
  return { scheme, host, display: `${scheme}://${hostAndPort}` };
}

/**
 * True when the URL is known and is not HTTPS (plain `http://`, another scheme, or no scheme at
 * all); false for HTTPS; null when the URL is missing.
 */
export function isPlainHttp(url: string | undefined): boolean | null {
  if (url === undefined || url.trim() === "") return null;
  return !HTTPS_PREFIX.test(url);
}

const HTTPS_PREFIX = /^\s*https:\/\/[^/?#]/i;

/** A name to show: the record's name, or "#id" when it has none. */
export function labelOf(record: { id: number; name?: string }): string {
  const name = record.name?.trim();
  return name ? name : `#${record.id}`;
}
