import { TRIGGER_OBJECTS } from "@/lib/ems/contract";
import { TRIGGER_ACTIONS, parseTriggerKey, type TriggerAction, type TriggerKey } from "@/lib/setup/setup-data";
import type { CoverageCell, CoverageReport, CoverageWebhook, EventCoverage } from "./compute";

/**
 * Coverage as a heat map: per event, each trigger object with three small marks (insert, update,
 * delete). Pure: it reshapes the report of lib/coverage/compute.ts, whose columns are only the
 * triggers the account uses, into the fixed grid of the contract's eight objects (plus any object
 * outside the contract that a webhook names), so every event row has the same shape.
 */

/** ok: something delivers; degraded: webhooks, none delivering; none: no webhook; missing: none, and the team requires it. */
export type MarkState = CoverageCell["state"] | "missing";

export interface HeatMark {
  action: TriggerAction;
  trigger: TriggerKey;
  state: MarkState;
  webhooks: number;
}

export interface HeatCell {
  object: string;
  marks: readonly HeatMark[];
}

/** The objects in the map's column order: the contract's eight, then any other the report has. */
export function heatmapObjects(report: Pick<CoverageReport, "triggers">): string[] {
  const objects: string[] = [...TRIGGER_OBJECTS];
  for (const trigger of report.triggers) {
    const object = parseTriggerKey(trigger)?.object;
    if (object && !objects.includes(object)) objects.push(object);
  }
  return objects;
}

/** The cell of one trigger in an event's row, or undefined when no webhook of the account fires on it. */
function cellFor(row: EventCoverage, triggers: readonly TriggerKey[], trigger: TriggerKey): CoverageCell | undefined {
  const column = triggers.indexOf(trigger);
  return column < 0 ? undefined : row.cells[column];
}

function webhooksOf(cell: CoverageCell | undefined): CoverageWebhook[] {
  return cell ? [...cell.eventWebhooks, ...cell.anyEventWebhooks] : [];
}

/** One event's row of the map: every object, each with its three marks. */
export function heatmapRow(row: EventCoverage, triggers: readonly TriggerKey[], objects: readonly string[], required: ReadonlySet<TriggerKey>): HeatCell[] {
  return objects.map((object) => ({
    object,
    marks: TRIGGER_ACTIONS.map((action) => {
      const trigger = `${object}:${action}` as TriggerKey;
      const cell = cellFor(row, triggers, trigger);
      const webhooks = cell ? cell.eventWebhooks.length + cell.anyEventWebhooks.length : 0;
      const failing = required.has(trigger) && row.requirements.some((check) => check.trigger === trigger && !check.pass);
      const state: MarkState = failing && (cell?.state ?? "none") !== "ok" ? "missing" : (cell?.state ?? "none");
      return { action, trigger, state, webhooks };
    }),
  }));
}

export interface CellPanel {
  event: EventCoverage["event"];
  object: string;
  actions: { action: TriggerAction; trigger: TriggerKey; state: MarkState; webhooks: CoverageWebhook[] }[];
}

/** What the panel of one event and object lists: per action, the webhooks that cover it. */
export function cellPanel(row: EventCoverage, triggers: readonly TriggerKey[], object: string, required: ReadonlySet<TriggerKey>): CellPanel {
  const marks = heatmapRow(row, triggers, [object], required)[0].marks;
  return {
    event: row.event,
    object,
    actions: marks.map((mark) => ({ action: mark.action, trigger: mark.trigger, state: mark.state, webhooks: webhooksOf(cellFor(row, triggers, mark.trigger)) })),
  };
}

/** A mark's state in one letter, as the page sends a row to the browser. */
export const MARK_LETTERS: Readonly<Record<MarkState, string>> = { ok: "o", degraded: "d", none: "n", missing: "m" };
const STATE_OF_LETTER = new Map(Object.entries(MARK_LETTERS).map(([state, letter]) => [letter, state as MarkState]));

/**
 * One event's row as the page sends it to the browser (components/coverage/heatmap-rows.tsx draws
 * it): a few short fields and a letter and a count per mark, instead of a tree of elements per cell,
 * which the page's HTML would then carry twice (the markup and its RSC payload).
 */
export interface HeatRowData {
  id: number;
  name: string | null;
  status: string | null;
  start: string | null;
  /** the required triggers it misses, in the order of the checks */
  missing: readonly TriggerKey[];
  /** per object (the page's order), per action: a letter of MARK_LETTERS */
  marks: string;
  /** per object, per action: how many webhooks */
  counts: readonly number[];
}

export function heatRowData(row: EventCoverage, cells: readonly HeatCell[]): HeatRowData {
  const marks = cells.flatMap((cell) => cell.marks);
  return {
    id: row.event.id,
    name: row.event.name ?? null,
    status: row.event.status ?? null,
    start: row.event.start_date ?? null,
    missing: row.requirements.filter((check) => !check.pass).map((check) => check.trigger),
    marks: marks.map((mark) => MARK_LETTERS[mark.state]).join(""),
    counts: marks.map((mark) => mark.webhooks),
  };
}

/** The cells of a row sent as data, back as the page computed them. */
export function heatCellsOf(data: Pick<HeatRowData, "marks" | "counts">, objects: readonly string[]): HeatCell[] {
  return objects.map((object, index) => ({
    object,
    marks: TRIGGER_ACTIONS.map((action, offset) => {
      const at = index * TRIGGER_ACTIONS.length + offset;
      return { action, trigger: `${object}:${action}` as TriggerKey, state: STATE_OF_LETTER.get(data.marks[at]) ?? "none", webhooks: data.counts[at] ?? 0 };
    }),
  }));
}
