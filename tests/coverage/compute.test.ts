import { describe, expect, it } from "vitest";
import { computeCoverage, coverageForEvent, coverageTriggers, type CoverageCell, type EventCoverage } from "@/lib/coverage/compute";
import type { Webhook } from "@/lib/ems";
import { compareTriggerKeys, type TriggerKey } from "@/lib/setup/setup-data";
import { event, group, NOW, setup, standardEvents, webhook } from "../health/builders";

const only = (overrides: Partial<Webhook>) => ({ trigger_on_insert: false, trigger_on_update: false, trigger_on_delete: false, ...overrides });

function cellOf(coverage: EventCoverage, triggers: readonly TriggerKey[], key: TriggerKey): CoverageCell {
  const index = triggers.indexOf(key);
  if (index < 0) throw new Error(`no column ${key}`);
  return coverage.cells[index];
}

function eventOf(report: ReturnType<typeof computeCoverage>, id: number): EventCoverage {
  const found = report.events.find((coverage) => coverage.event.id === id);
  if (!found) throw new Error(`event ${id} not in the report`);
  return found;
}

describe("columns", () => {
  it("are the triggers the webhooks may fire on plus the required ones, in TRIGGER_OBJECTS then action order", () => {
    const data = setup([
      group({
        webhooks: [
          webhook({ trigger_object: "session", ...only({ trigger_on_delete: true }) }),
          webhook({ trigger_object: "registrant", ...only({ trigger_on_update: true, trigger_on_insert: true }) }),
          webhook({ trigger_object: "future_object", ...only({ trigger_on_insert: true }) }),
          // A missing switch may be on: a column for each missing action.
          webhook({ trigger_object: "event", trigger_on_insert: false, trigger_on_update: undefined, trigger_on_delete: undefined }),
          webhook({ trigger_object: undefined }),
        ],
      }),
    ]);
    const expected: TriggerKey[] = ["event:update", "event:delete", "contact:insert", "registrant:insert", "registrant:update", "session:delete", "future_object:insert"];
    expect(coverageTriggers(data, ["contact:insert"])).toEqual(expected);
    expect(computeCoverage(data, { now: NOW, requiredTriggers: ["contact:insert"] }).triggers).toEqual(expected);
    expect([...expected].sort(compareTriggerKeys)).toEqual(expected);
  });
});

describe("cells and states", () => {
  const hooks = {
    good: webhook({ id: 1, name: "Good", url: "https://good.example.com/x", event_ids: [1] }),
    disabled: webhook({ id: 2, url: "https://off.example.com/x", event_ids: [2], enabled: false }),
    plain: webhook({ id: 3, url: "http://plain.example.com/x", event_ids: [2] }),
    noActor: webhook({ id: 4, event_ids: [2], public_user: false, admin_user: false, api_call: false }),
  };
  const data = setup([group({ id: 9, name: "CRM", webhooks: Object.values(hooks) })]);
  const report = computeCoverage(data, { now: NOW });

  it("lists each webhook with its group, host, state and URL kind", () => {
    const cell = cellOf(eventOf(report, 1), report.triggers, "registrant:insert");
    expect(cell).toEqual({
      trigger: "registrant:insert",
      state: "ok",
      anyEventWebhooks: [],
      eventWebhooks: [{ groupId: 9, groupName: "CRM", webhookId: 1, webhookName: "Good", host: "good.example.com", enabled: true, plainHttp: false, canFire: true }],
    });
  });

  it("is degraded when every webhook is disabled, plain HTTP or can never fire, and none without webhooks", () => {
    const second = eventOf(report, 2);
    const cell = cellOf(second, report.triggers, "registrant:insert");
    expect(cell.state).toBe("degraded");
    expect(cell.eventWebhooks.map((entry) => [entry.webhookId, entry.enabled, entry.plainHttp, entry.canFire])).toEqual([
      [2, false, false, true],
      [3, true, true, true],
      [4, true, false, false],
    ]);
    expect(second.counts).toEqual({ ok: 0, degraded: 3, none: 0, webhooks: 3 });
    const draftOnly = computeCoverage(setup([group({ webhooks: [webhook({ event_ids: [2], ...only({ trigger_on_insert: true }) })] })]), { now: NOW });
    expect(cellOf(eventOf(draftOnly, 1), draftOnly.triggers, "registrant:insert").state).toBe("none");
  });

  it("is ok as soon as one webhook is healthy", () => {
    const mixed = computeCoverage(setup([group({ webhooks: [hooks.disabled, hooks.plain, { ...hooks.good, event_ids: [2] }] })]), { now: NOW });
    expect(cellOf(eventOf(mixed, 2), mixed.triggers, "registrant:insert").state).toBe("ok");
  });

  it("places a webhook once per event even when event_ids repeats it", () => {
    const repeated = computeCoverage(setup([group({ webhooks: [webhook({ event_ids: [1, 2, 1, 1] })] })]), { now: NOW });
    expect(eventOf(repeated, 1).counts.webhooks).toBe(1);
    expect(cellOf(eventOf(repeated, 1), repeated.triggers, "registrant:insert").eventWebhooks).toHaveLength(1);
  });
});

describe("catch-all webhooks", () => {
  const events = [event({ id: 1 }), event({ id: 2 }), event({ id: 3 })];
  const data = setup(
    [
      group({ webhooks: [webhook({ id: 50, any_event: true, event_ids: [], ...only({ trigger_on_insert: true }) })] }),
      group({ webhooks: [webhook({ id: 60, event_ids: [2], url: "http://plain.example.com/", ...only({ trigger_on_insert: true }) })] }),
    ],
    events,
  );
  const report = computeCoverage(data, { now: NOW });

  it("appear in every event, as one shared list", () => {
    const cells = report.events.map((coverage) => cellOf(coverage, report.triggers, "registrant:insert"));
    expect(cells.map((cell) => cell.anyEventWebhooks.map((entry) => entry.webhookId))).toEqual([[50], [50], [50]]);
    expect(cells[1].anyEventWebhooks).toBe(cells[0].anyEventWebhooks);
    expect(cells[2].anyEventWebhooks).toBe(cells[0].anyEventWebhooks);
    // Events with nothing else share the whole cell.
    expect(cells[2]).toBe(cells[0]);
    expect(cells[1]).not.toBe(cells[0]);
    expect(cells[1].eventWebhooks.map((entry) => entry.webhookId)).toEqual([60]);
    expect(cells.map((cell) => cell.state)).toEqual(["ok", "ok", "ok"]);
    expect(report.events.map((coverage) => coverage.counts.webhooks)).toEqual([1, 2, 1]);
  });

  it("are the same object in every cell they appear in", () => {
    const second = eventOf(report, 2);
    expect(cellOf(second, report.triggers, "registrant:insert").anyEventWebhooks[0]).toBe(
      cellOf(eventOf(report, 1), report.triggers, "registrant:insert").anyEventWebhooks[0],
    );
  });
});

describe("requirements", () => {
  const data = setup([
    group({
      webhooks: [
        webhook({ event_ids: [1], ...only({ trigger_on_insert: true }) }),
        // Disabled: it does not pass a requirement, plain HTTP does (it is enabled).
        webhook({ event_ids: [1], enabled: false, ...only({ trigger_on_delete: true }) }),
        webhook({ event_ids: [2], url: "http://plain.example.com/", ...only({ trigger_on_insert: true, trigger_on_delete: true }) }),
      ],
    }),
  ]);
  const required: TriggerKey[] = ["registrant:insert", "registrant:delete", "session:insert"];
  const report = computeCoverage(data, { now: NOW, requiredTriggers: required });

  it("pass with at least one enabled webhook", () => {
    expect(eventOf(report, 1).requirements).toEqual([
      { trigger: "registrant:insert", pass: true },
      { trigger: "registrant:delete", pass: false },
      { trigger: "session:insert", pass: false },
    ]);
    expect(eventOf(report, 1).requirementsMet).toBe(false);
    expect(
      eventOf(report, 2)
        .requirements.filter((requirement) => requirement.pass)
        .map((requirement) => requirement.trigger),
    ).toEqual(["registrant:insert", "registrant:delete"]);
  });

  it("add a column of their own, empty when no webhook has the trigger", () => {
    expect(report.triggers).toContain("session:insert");
    expect(cellOf(eventOf(report, 1), report.triggers, "session:insert").state).toBe("none");
  });

  it("are met when all pass, and trivially without any", () => {
    const met = computeCoverage(data, { now: NOW, requiredTriggers: ["registrant:insert"] });
    expect(met.events.map((coverage) => [coverage.event.id, coverage.requirementsMet])).toEqual([
      [1, true],
      [2, true],
    ]);
    expect(computeCoverage(data, { now: NOW }).events.every((coverage) => coverage.requirementsMet && coverage.requirements.length === 0)).toBe(true);
  });
});

describe("statuses", () => {
  const data = setup([group({ webhooks: [webhook({ event_ids: [1, 3] })] })], [...standardEvents(), { id: 6 }]);

  it("shows open events by default: live, draft, and events of unknown status", () => {
    const report = computeCoverage(data, { now: NOW });
    expect(report.events.map((coverage) => coverage.event.id)).toEqual([1, 2, 6]);
    expect(report.events.map((coverage) => [coverage.live, coverage.ended])).toEqual([
      [true, false],
      [false, false],
      [false, false],
    ]);
  });

  it("shows every event with 'all', closed, cancelled and past ones marked ended", () => {
    const report = computeCoverage(data, { now: NOW, statuses: "all" });
    expect(report.events.map((coverage) => [coverage.event.id, coverage.ended])).toEqual([
      [1, false],
      [2, false],
      [3, true],
      [4, true],
      [5, true],
      [6, false],
    ]);
    expect(eventOf(report, 3).counts.ok).toBeGreaterThan(0);
  });

  it("reads the date from the clock it is given", () => {
    expect(computeCoverage(data, { now: new Date("2026-06-21T00:00:00Z") }).events.map((coverage) => coverage.event.id)).toEqual([2, 6]);
  });
});

describe("missing fields", () => {
  it("count webhooks whose events or object are unknown as unplaced, and unknown state as enabled but not claimed", () => {
    const data = setup([
      group({
        webhooks: [
          { id: 1 },
          webhook({ id: 2, any_event: undefined, event_ids: undefined }),
          webhook({ id: 3, trigger_object: undefined }),
          { id: 4, trigger_object: "registrant", event_ids: [1] },
        ],
      }),
    ]);
    const report = computeCoverage(data, { now: NOW, requiredTriggers: ["registrant:insert"] });
    expect(report.unplacedWebhooks).toBe(3);
    const cell = cellOf(eventOf(report, 1), report.triggers, "registrant:insert");
    expect(cell.eventWebhooks).toEqual([
      { groupId: expect.any(Number), groupName: expect.any(String), webhookId: 4, webhookName: undefined, host: null, enabled: null, plainHttp: false, canFire: true },
    ]);
    expect(cell.state).toBe("ok");
    expect(eventOf(report, 1).requirementsMet).toBe(true);
  });

  it("handles groups without webhooks and no data", () => {
    expect(computeCoverage({ groups: [{ id: 1 }], events: [] }, { now: NOW })).toEqual({ triggers: [], events: [], unplacedWebhooks: 0, neverFiringWebhooks: 0 });
  });

  it("count a webhook with insert, update and delete all off as never firing, not as unknown", () => {
    const data = setup([
      group({
        webhooks: [
          webhook({ id: 1, trigger_on_insert: false, trigger_on_update: false, trigger_on_delete: false }),
          webhook({ id: 2, trigger_on_insert: false, trigger_on_update: false, trigger_on_delete: false, event_ids: undefined, any_event: undefined }),
          webhook({ id: 3, trigger_object: undefined }),
          webhook({ id: 4 }),
        ],
      }),
    ]);
    const report = computeCoverage(data, { now: NOW });
    expect(report.neverFiringWebhooks).toBe(2);
    expect(report.unplacedWebhooks).toBe(1);
  });
});

describe("coverageForEvent", () => {
  const data = setup([
    group({
      id: 5,
      webhooks: [
        webhook({ id: 51, event_ids: [1], trigger_object: "session", ...only({ trigger_on_insert: true }) }),
        webhook({ id: 52, event_ids: [2], trigger_object: "speaker", ...only({ trigger_on_insert: true }) }),
        webhook({ id: 53, any_event: true, event_ids: [], trigger_object: "registrant", ...only({ trigger_on_update: true }) }),
      ],
    }),
  ]);

  it("has a column for each trigger of that event's webhooks and the required ones, with the same cells", () => {
    const coverage = coverageForEvent(data, 1, { now: NOW, requiredTriggers: ["contact:insert"] });
    expect(coverage?.triggers).toEqual(["contact:insert", "registrant:update", "session:insert"]);
    expect(coverage?.cells.map((cell) => [cell.trigger, cell.state, [...cell.anyEventWebhooks, ...cell.eventWebhooks].map((entry) => entry.webhookId)])).toEqual([
      ["contact:insert", "none", []],
      ["registrant:update", "ok", [53]],
      ["session:insert", "ok", [51]],
    ]);
    expect(coverage?.requirementsMet).toBe(false);
    expect(coverage?.counts).toEqual({ ok: 2, degraded: 0, none: 1, webhooks: 2 });
  });

  it("matches the full report's cells for the same event, and covers ended events too", () => {
    const report = computeCoverage(data, { now: NOW, statuses: "all" });
    for (const id of [1, 2, 3]) {
      const single = coverageForEvent(data, id, { now: NOW })!;
      const full = eventOf(report, id);
      for (const [index, trigger] of single.triggers.entries()) expect(single.cells[index]).toEqual(cellOf(full, report.triggers, trigger));
    }
    expect(coverageForEvent(data, 3, { now: NOW })?.ended).toBe(true);
  });

  it("is null for an event the account does not have", () => {
    expect(coverageForEvent(data, 404, { now: NOW })).toBeNull();
  });
});
