import { describe, expect, it } from "vitest";
import { checkedCoverage } from "@/lib/coverage/checked";
import { computeCoverage } from "@/lib/coverage/compute";
import { heatCellsOf, heatmapObjects, heatmapRow, heatRowData } from "@/lib/coverage/heatmap";
import { demoSetup, EVENING, MORNING, NEXT_DAY, REQUIRED } from "../health/demo-setup";

describe("checkedCoverage: the coverage grid kept while the setup is the same", () => {
  it("gives the grid computeCoverage gives, once per setup, UTC day, scope and required triggers", () => {
    const data = demoSetup(true);
    const first = checkedCoverage(data, { now: MORNING, requiredTriggers: REQUIRED });
    expect(first).toEqual(computeCoverage(data, { now: MORNING, requiredTriggers: REQUIRED }));
    expect(first.events.length).toBeGreaterThan(0);
    // Later the same day, in another SetupData holding the same arrays (every view builds its own): kept.
    expect(checkedCoverage({ ...data }, { now: EVENING, requiredTriggers: [...REQUIRED] })).toBe(first);
    // Frozen: a view cannot change it for the next.
    expect(() => first.events.push(first.events[0])).toThrow(TypeError);
    expect(() => ((first.events[0] as { live: boolean }).live = !first.events[0].live)).toThrow(TypeError);

    // Another day, another scope, other required triggers: each computed (and kept) apart.
    const nextDay = checkedCoverage(data, { now: NEXT_DAY, requiredTriggers: REQUIRED });
    expect(nextDay).not.toBe(first);
    const all = checkedCoverage(data, { now: MORNING, statuses: "all", requiredTriggers: REQUIRED });
    expect(all).not.toBe(first);
    expect(all.events.length).toBeGreaterThanOrEqual(first.events.length);
    expect(checkedCoverage(data, { now: MORNING, statuses: "all", requiredTriggers: REQUIRED })).toBe(all);
    expect(checkedCoverage(data, { now: MORNING, requiredTriggers: [] })).not.toBe(first);
  });

  it("computes a setup that is not frozen (just asked of the API, a test's data) every time", () => {
    const data = demoSetup(false);
    const first = checkedCoverage(data, { now: MORNING });
    expect(checkedCoverage(data, { now: MORNING })).not.toBe(first);
    expect(checkedCoverage(data, { now: MORNING })).toEqual(first);
  });
});

describe("a heat map row sent as data", () => {
  it("draws the same cells as the page computed: every object's three marks, their states and webhook counts", () => {
    const data = demoSetup(false);
    const report = computeCoverage(data, { now: MORNING, statuses: "all", requiredTriggers: REQUIRED });
    const objects = heatmapObjects(report);
    const required = new Set(REQUIRED);
    const states = new Set<string>();
    for (const row of report.events) {
      const cells = heatmapRow(row, report.triggers, objects, required);
      const sent = heatRowData(row, cells);
      // What travels: one letter and one count per mark, not the cells' objects.
      expect(sent.marks).toHaveLength(objects.length * 3);
      expect(JSON.parse(JSON.stringify(sent))).toEqual(sent);
      expect(heatCellsOf(sent, objects)).toEqual(cells);
      for (const cell of cells) for (const mark of cell.marks) states.add(mark.state);
      expect(sent.missing).toEqual(row.requirements.filter((check) => !check.pass).map((check) => check.trigger));
    }
    // The demo account has every kind of mark, so every letter was read back.
    expect([...states].sort()).toEqual(["degraded", "missing", "none", "ok"]);
  });
});
