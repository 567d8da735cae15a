import { describe, expect, it } from "vitest";
import { budgetWaitMs, isBudgetLow, reservedCredits, sharingWindowMs } from "@/lib/ems/budget";

/** The budget plan's rules (lib/ems/budget.ts) with the default settings: 30 % reserve, 20 % low mark. */
const now = Date.parse("2026-11-23T17:00:00Z");
const figures = (remaining: number, resetInSeconds = 300) => ({ limit: 2000, remaining, resetAt: new Date(now + resetInSeconds * 1000) });

describe("the reserve for page views", () => {
  it("keeps 30 % of the window: background work waits for the reset when a call would dip into it", () => {
    expect(reservedCredits(2000)).toBe(600);
    expect(budgetWaitMs("export", figures(610), 10, now)).toBe(0);
    expect(budgetWaitMs("export", figures(609), 10, now)).toBe(300_000);
    expect(budgetWaitMs("sync", figures(100), 10, now)).toBe(300_000);
    expect(budgetWaitMs("coverage", figures(100), 10, now)).toBe(300_000);
  });

  it("never holds a page view back, and nothing waits once the window has reset or with no figures", () => {
    expect(budgetWaitMs("page", figures(15), 10, now)).toBe(0);
    expect(budgetWaitMs("export", figures(15, -1), 10, now)).toBe(0);
    expect(budgetWaitMs("export", null, 10, now)).toBe(0);
  });
});

describe("the low-budget mark and the sharing window", () => {
  it("is low under 20 % of the window left, until the reset", () => {
    expect(isBudgetLow(figures(399), now)).toBe(true);
    expect(isBudgetLow(figures(400), now)).toBe(false);
    expect(isBudgetLow(figures(0, -1), now)).toBe(false);
  });

  it("shares answers for the window, four times longer under half the budget, and until the reset under the low mark", () => {
    expect(sharingWindowMs(30_000, figures(1500), now)).toBe(30_000);
    expect(sharingWindowMs(30_000, figures(999), now)).toBe(120_000);
    expect(sharingWindowMs(30_000, figures(399, 400), now)).toBe(400_000);
    expect(sharingWindowMs(30_000, figures(399, 60), now)).toBe(120_000);
    expect(sharingWindowMs(30_000, figures(10, -1), now)).toBe(30_000);
    expect(sharingWindowMs(30_000, null, now)).toBe(30_000);
    // Sharing off stays off.
    expect(sharingWindowMs(0, figures(10), now)).toBe(0);
  });
});
