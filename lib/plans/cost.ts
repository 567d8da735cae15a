import { verbOf, type DraftOperation } from "./operations";
import { plural } from "@/lib/text/plural";

/**
 * What applying a plan costs in API credits and about how long it takes at the account's budget
 * (docs/ems-api.md §5: 2,000 credits per 10 minutes; a write 1 credit). Pure.
 * - An update or delete reads the record first (the conflict check, 1 credit), then writes (1).
 * - A create writes (1).
 * Plan work is background work: it keeps out of the share of each window reserved for page views
 * (lib/ems/budget.ts), so it waits for the next window rather than eat it.
 */

/** Past this many operations a plan is called large: it says what it costs before anyone drafts or submits it (issue 27 §3). */
export const LARGE_PLAN_OPERATIONS = 1_000;

export interface PlanCost {
  credits: number;
  calls: number;
  /** Estimated wall time, in seconds. */
  seconds: number;
  /** Windows it has to wait for (0: it fits in what is left now). */
  windowsWaited: number;
}

/** About how long one call takes, answer included (the sandbox and the EMS: ~50–200 ms). */
export const SECONDS_PER_CALL = 0.15;

export interface BudgetNow {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetInSeconds: number;
  windowSeconds: number;
  /** Credits of each window kept for page views. */
  reserved: number;
}

export function creditsOf(operations: readonly DraftOperation[]): number {
  return operations.reduce((sum, op) => sum + (verbOf(op.operation) === "create" ? 1 : 2), 0);
}

export function planCost(operations: readonly DraftOperation[], budget: BudgetNow): PlanCost {
  return costOfCredits(creditsOf(operations), budget);
}

/** What `credits` of plan work cost in time at the budget (planCost, for a plan counted rather than read). */
export function costOfCredits(credits: number, budget: BudgetNow): PlanCost {
  const callSeconds = credits * SECONDS_PER_CALL;
  const usableNow = Math.max(0, budget.remaining - budget.reserved);
  const perWindow = Math.max(1, budget.limit - budget.reserved);
  if (credits <= usableNow) return { credits, calls: credits, seconds: Math.ceil(callSeconds), windowsWaited: 0 };
  const windowsWaited = Math.ceil((credits - usableNow) / perWindow);
  const waited = budget.resetInSeconds + (windowsWaited - 1) * budget.windowSeconds;
  return {
    credits,
    calls: credits,
    seconds: Math.ceil(Math.max(callSeconds, waited + (credits - usableNow - (windowsWaited - 1) * perWindow) * SECONDS_PER_CALL)),
    windowsWaited,
  };
}

/** "about 3 minutes", "under a minute". */
export function durationInWords(seconds: number): string {
  if (seconds < 60) return "under a minute";
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `about ${plural(minutes, "minute")}`;
  const hours = Math.round((seconds / 3600) * 10) / 10;
  return `about ${hours} hours`;
}
