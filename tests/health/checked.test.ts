import { describe, expect, it } from "vitest";
import { checkedHealth } from "@/lib/health/checked";
import { runHealthChecks } from "@/lib/health/rules";
import { demoSetup, EVENING, MORNING, NEXT_DAY, REQUIRED } from "./demo-setup";

describe("checkedHealth: the health checks kept while the setup is the same", () => {
  it("gives the same findings as the rules, once per setup, UTC day and required triggers", () => {
    const data = demoSetup(true);
    const first = checkedHealth(data, { now: MORNING, requiredTriggers: REQUIRED });
    expect(first).toEqual(runHealthChecks(data, { now: MORNING, requiredTriggers: REQUIRED }));
    expect(first.length).toBeGreaterThan(0);
    // Later the same day, in another SetupData holding the same arrays (every view builds its own): kept.
    expect(checkedHealth({ ...data }, { now: EVENING, requiredTriggers: [...REQUIRED] })).toBe(first);
    // Frozen: a view cannot change them for the next.
    expect(() => (first as unknown[]).push(null)).toThrow(TypeError);
    expect(Object.isFrozen(first[0])).toBe(true);

    // Another day ("live" and "ended" move), other required triggers, other arrays: checked again.
    const nextDay = checkedHealth(data, { now: NEXT_DAY, requiredTriggers: REQUIRED });
    expect(nextDay).not.toBe(first);
    expect(nextDay).toEqual(runHealthChecks(data, { now: NEXT_DAY, requiredTriggers: REQUIRED }));
    const otherTriggers = checkedHealth(data, { now: NEXT_DAY, requiredTriggers: ["registrant:insert"] });
    expect(otherTriggers).not.toBe(nextDay);
    expect(otherTriggers).toEqual(runHealthChecks(data, { now: NEXT_DAY, requiredTriggers: ["registrant:insert"] }));
    const copy = demoSetup(true);
    expect(checkedHealth(copy, { now: MORNING, requiredTriggers: REQUIRED })).not.toBe(first);
  });

  it("checks a setup that is not frozen (just asked from the API) every time, and keeps nothing of it", () => {
    const data = demoSetup(false);
    const first = checkedHealth(data, { now: MORNING, requiredTriggers: REQUIRED });
    const second = checkedHealth(data, { now: MORNING, requiredTriggers: REQUIRED });
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
    expect(Object.isFrozen(first)).toBe(false);
  });
});
