import type { EmsEvent, Webhook, WebhookGroup } from "@/lib/ems";
import {
  compareTriggerKeys,
  eventScope,
  hasPossibleActor,
  isEnded,
  isLive,
  isPlainHttp,
  mayBeEnabled,
  possibleTriggers,
  urlParts,
  utcDay,
  type EventScope,
  type SetupData,
  type TriggerKey,
} from "@/lib/setup/setup-data";
import { neverFiresReasons } from "@/lib/setup/webhook-status";

/**
 * The coverage grid: for each event, which webhooks fire on each trigger (object + action), and
 * whether that is good enough. Pure: the caller passes the account's data and `now`.
 *
 * Built for 2,000 events × 20,000 webhooks in a few tens of milliseconds: each webhook becomes one
 * `CoverageWebhook` shared by every cell it appears in, catch-all (`any_event`) webhooks are listed
 * once per trigger and that list (and, where an event has nothing else, the whole cell) is shared by
 * every event, and `event_ids` are indexed in one pass.
 */

export type CellState = "ok" | "degraded" | "none";

/** One webhook as a cell shows it. The same object appears in every cell the webhook is in. */
export interface CoverageWebhook {
  groupId: number;
  groupName?: string;
  webhookId: number;
  webhookName?: string;
  /** the URL's host; null when the URL is missing or unreadable */
  host: string | null;
  /** null when `enabled` is missing: counted as enabled, never shown as such */
  enabled: boolean | null;
  /** the URL is known and is not HTTPS */
  plainHttp: boolean;
  /** false when public user, admin user and API call are all off: it can never fire */
  canFire: boolean;
}

export interface CoverageCell {
  trigger: TriggerKey;
  /**
   * ok: at least one webhook that may be enabled, with a URL not known to be plain HTTP, and an
   * actor switch not known to be off; degraded: webhooks exist but none is like that; none: no webhook.
   */
  state: CellState;
  /** catch-all webhooks of this trigger: the same array in every event's cell (do not mutate) */
  anyEventWebhooks: readonly CoverageWebhook[];
  /** webhooks that list this event in `event_ids` */
  eventWebhooks: readonly CoverageWebhook[];
}

export interface RequirementCheck {
  trigger: TriggerKey;
  /** at least one webhook for it that may be enabled */
  pass: boolean;
}

export interface EventCoverage {
  event: EmsEvent;
  /** closed, cancelled, or past its end date */
  ended: boolean;
  /** status live and not past its end date */
  live: boolean;
  /** one cell per trigger column, in the order of the report's (or the page's) `triggers` */
  cells: readonly CoverageCell[];
  requirements: readonly RequirementCheck[];
  requirementsMet: boolean;
  counts: {
    ok: number;
    degraded: number;
    none: number;
    /** distinct webhooks configured for this event (catch-all ones included, disabled ones too) */
    webhooks: number;
  };
}

export interface CoverageReport {
  /** the columns: every trigger the account's webhooks may fire on, plus the required ones */
  triggers: readonly TriggerKey[];
  events: EventCoverage[];
  /** webhooks the grid cannot place because their events or trigger object are unknown */
  unplacedWebhooks: number;
  /** webhooks in no cell because insert, update and delete are all off: they never fire */
  neverFiringWebhooks: number;
}

export interface CoverageOptions {
  now: Date;
  /** "open" (default): events not ended; "all": every event */
  statuses?: "open" | "all";
  requiredTriggers?: readonly TriggerKey[];
}

/** One webhook read once: what a cell shows, the columns it belongs in, and its events. */
type PlacedWebhook = {
  entry: CoverageWebhook;
  triggers: readonly TriggerKey[];
  scope: EventScope;
  /** may be enabled: what a requirement counts */
  counts: boolean;
  /** may be enabled, is not plain HTTP and can fire: what makes a cell ok */
  healthy: boolean;
};

/** What one event's listed webhooks contribute, column by column. */
type ListedForEvent = {
  byColumn: (CoverageWebhook[] | undefined)[];
  webhooks: number;
  /** the last webhook added: skips an id repeated in one `event_ids` without a Set per webhook */
  last: CoverageWebhook | undefined;
};

const NO_WEBHOOKS: readonly CoverageWebhook[] = Object.freeze([]);

function placeWebhook(group: WebhookGroup, hook: Webhook): PlacedWebhook {
  const plainHttp = isPlainHttp(hook.url) === true;
  const canFire = hasPossibleActor(hook);
  const counts = mayBeEnabled(hook);
  return {
    entry: {
      groupId: group.id,
      groupName: group.name,
      webhookId: hook.id,
      webhookName: hook.name,
      host: urlParts(hook.url)?.host || null,
      enabled: hook.enabled ?? null,
      plainHttp,
      canFire,
    },
    triggers: possibleTriggers(hook),
    scope: eventScope(hook),
    counts,
    healthy: counts && !plainHttp && canFire,
  };
}

/**
 * Every webhook of the account (or those `include` keeps) that has a trigger and known events;
 * how many have not.
 */
function placeWebhooks(data: SetupData, include?: (hook: Webhook) => boolean): { placed: PlacedWebhook[]; unplaced: number; neverFiring: number } {
  const placed: PlacedWebhook[] = [];
  let unplaced = 0;
  let neverFiring = 0;
  for (const group of data.groups) {
    for (const hook of group.webhooks ?? []) {
      if (include && !include(hook)) continue;
      const webhook = placeWebhook(group, hook);
      if (webhook.triggers.length > 0 && webhook.scope.kind !== "unknown") placed.push(webhook);
      // No trigger because every action is off is known, not unknown: such a webhook never fires.
      else if (neverFiresReasons(hook).includes("no-actions")) neverFiring++;
      else unplaced++;
    }
  }
  return { placed, unplaced, neverFiring };
}

/** Set up for the event (enabled or not): catch-all, or listing it. */
function isSetUpFor(hook: Webhook, eventId: number): boolean {
  const scope = eventScope(hook);
  return scope.kind === "all" || (scope.kind === "listed" && scope.eventIds.includes(eventId));
}

/** The columns: the triggers of these webhooks and the required ones, in the contract's order. */
function columnsOf(placed: readonly PlacedWebhook[], required: readonly TriggerKey[]): TriggerKey[] {
  const keys = new Set<TriggerKey>(required);
  for (const webhook of placed) for (const key of webhook.triggers) keys.add(key);
  return [...keys].sort(compareTriggerKeys);
}

/**
 * The trigger keys used as columns for this account: every trigger its webhooks may fire on
 * (a missing `trigger_on_*` may be on) plus the required ones, ordered by TRIGGER_OBJECTS, then
 * insert, update, delete.
 */
export function coverageTriggers(data: SetupData, requiredTriggers: readonly TriggerKey[] = []): TriggerKey[] {
  return columnsOf(placeWebhooks(data).placed, requiredTriggers);
}

/** The webhooks of each column, split into catch-all ones (shared) and the ones each event lists. */
type ColumnIndex = {
  triggers: readonly TriggerKey[];
  anyEvent: PlacedWebhook[][];
  anyEventWebhooks: number;
  listed: Map<number, ListedForEvent>;
};

function indexByColumn(placed: readonly PlacedWebhook[], triggers: readonly TriggerKey[]): ColumnIndex {
  const columnsOfTriggers = columnLookup(triggers);
  const anyEvent: PlacedWebhook[][] = triggers.map(() => []);
  const listed = new Map<number, ListedForEvent>();
  let anyEventWebhooks = 0;
  for (const webhook of placed) {
    const columns = columnsOfTriggers(webhook.triggers);
    if (webhook.scope.kind === "all") {
      anyEventWebhooks++;
      for (const column of columns) anyEvent[column].push(webhook);
      continue;
    }
    if (webhook.scope.kind !== "listed") continue;
    for (const eventId of webhook.scope.eventIds) {
      let forEvent = listed.get(eventId);
      if (!forEvent) listed.set(eventId, (forEvent = { byColumn: new Array(triggers.length), webhooks: 0, last: undefined }));
      if (forEvent.last === webhook.entry) continue;
      forEvent.last = webhook.entry;
      forEvent.webhooks++;
      for (const column of columns) (forEvent.byColumn[column] ??= []).push(webhook.entry);
    }
  }
  return { triggers, anyEvent, anyEventWebhooks, listed };
}

/**
 * Column indexes of a webhook's trigger list. possibleTriggers shares one array per object and
 * set of switches, so the lookup is cached by that array: a few dozen lookups, not 20,000.
 */
function columnLookup(triggers: readonly TriggerKey[]): (keys: readonly TriggerKey[]) => readonly number[] {
  const column = new Map(triggers.map((key, index) => [key, index]));
  const cache = new Map<readonly TriggerKey[], readonly number[]>();
  return (keys) => {
    let columns = cache.get(keys);
    if (!columns) cache.set(keys, (columns = keys.map((key) => column.get(key)!)));
    return columns;
  };
}

/** Whether a list holds a healthy webhook, and one that may be enabled. */
type ListSummary = { healthy: boolean; counts: boolean };

function summarize(webhooks: readonly PlacedWebhook[]): ListSummary {
  return { healthy: webhooks.some((webhook) => webhook.healthy), counts: webhooks.some((webhook) => webhook.counts) };
}

function isHealthyEntry(entry: CoverageWebhook): boolean {
  return entry.enabled !== false && !entry.plainHttp && entry.canFire;
}

function stateOf(anyEvent: ListSummary, anyEventSize: number, listed: readonly CoverageWebhook[]): CellState {
  if (anyEvent.healthy || listed.some(isHealthyEntry)) return "ok";
  return anyEventSize + listed.length > 0 ? "degraded" : "none";
}

/** Per column, what every event shares: the catch-all list, its summary, and the cell of an event with nothing else. */
type SharedColumns = {
  lists: readonly (readonly CoverageWebhook[])[];
  summaries: readonly ListSummary[];
  cells: readonly CoverageCell[];
};

function sharedColumns(index: ColumnIndex): SharedColumns {
  const lists = index.anyEvent.map((webhooks) => (webhooks.length ? Object.freeze(webhooks.map((webhook) => webhook.entry)) : NO_WEBHOOKS));
  const summaries = index.anyEvent.map(summarize);
  const cells = index.triggers.map((trigger, column) =>
    Object.freeze({ trigger, state: stateOf(summaries[column], lists[column].length, NO_WEBHOOKS), anyEventWebhooks: lists[column], eventWebhooks: NO_WEBHOOKS }),
  );
  return { lists, summaries, cells };
}

function eventCoverage(event: EmsEvent, today: string, index: ColumnIndex, shared: SharedColumns, requiredColumns: readonly number[]): EventCoverage {
  const forEvent = index.listed.get(event.id);
  const cells: CoverageCell[] = new Array(index.triggers.length);
  const counts = { ok: 0, degraded: 0, none: 0, webhooks: index.anyEventWebhooks + (forEvent?.webhooks ?? 0) };
  for (let column = 0; column < cells.length; column++) {
    const listed = forEvent?.byColumn[column];
    const cell = listed
      ? {
          trigger: index.triggers[column],
          state: stateOf(shared.summaries[column], shared.lists[column].length, listed),
          anyEventWebhooks: shared.lists[column],
          eventWebhooks: listed,
        }
      : shared.cells[column];
    cells[column] = cell;
    counts[cell.state]++;
  }
  const requirements = requiredColumns.map((column) => ({
    trigger: index.triggers[column],
    pass: shared.summaries[column].counts || (forEvent?.byColumn[column]?.some((entry) => entry.enabled !== false) ?? false),
  }));
  return {
    event,
    ended: isEnded(event, today),
    live: isLive(event, today),
    cells,
    requirements,
    requirementsMet: requirements.every((requirement) => requirement.pass),
    counts,
  };
}

function requiredColumnsOf(triggers: readonly TriggerKey[], required: readonly TriggerKey[]): number[] {
  return [...new Set(required)].map((key) => triggers.indexOf(key));
}

/**
 * Coverage of every open event (or every event with `statuses: "all"`), in the order of
 * `data.events`, with one cell per trigger column.
 */
export function computeCoverage(data: SetupData, options: CoverageOptions): CoverageReport {
  const today = utcDay(options.now);
  const required = options.requiredTriggers ?? [];
  const { placed, unplaced, neverFiring } = placeWebhooks(data);
  const triggers = columnsOf(placed, required);
  const index = indexByColumn(placed, triggers);
  const shared = sharedColumns(index);
  const requiredColumns = requiredColumnsOf(triggers, required);
  const events: EventCoverage[] = [];
  for (const event of data.events) {
    if (options.statuses !== "all" && isEnded(event, today)) continue;
    events.push(eventCoverage(event, today, index, shared, requiredColumns));
  }
  return { triggers, events, unplacedWebhooks: unplaced, neverFiringWebhooks: neverFiring };
}

export interface SingleEventCoverage extends EventCoverage {
  /** the triggers of the webhooks that fire for this event, plus the required ones */
  triggers: readonly TriggerKey[];
}

/**
 * One event's coverage, for its page: the same cells, with a column for every trigger that applies
 * to this event (its webhooks' triggers and the required ones). Null when the event is not in `data`.
 */
export function coverageForEvent(data: SetupData, eventId: number, options: Pick<CoverageOptions, "now" | "requiredTriggers">): SingleEventCoverage | null {
  const event = data.events.find((candidate) => candidate.id === eventId);
  if (!event) return null;
  const required = options.requiredTriggers ?? [];
  // Only this event's webhooks are read in full: one event's page is not the whole grid.
  const { placed } = placeWebhooks(data, (hook) => isSetUpFor(hook, eventId));
  const triggers = columnsOf(placed, required);
  const index = indexByColumn(placed, triggers);
  const coverage = eventCoverage(event, utcDay(options.now), index, sharedColumns(index), requiredColumnsOf(triggers, required));
  return { ...coverage, triggers };
}
