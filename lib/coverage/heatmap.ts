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
