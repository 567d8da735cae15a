import "server-only";
import { flushBudgetUsage } from "./budget";
import { flushRateLimits } from "./rate-limit";
import { ems } from "./state";

/**
 * Waits for the client's background writes (rate-limit figures, budget usage) to reach the database. Call it
 * before a script exits, and in tests before reading EmsTokenCache or closing the database.
 */
export async function flushEmsState(): Promise<void> {
  await Promise.allSettled([...ems.inflight.values(), ...ems.answerFlights.values()]);
  await Promise.all([flushRateLimits(), flushBudgetUsage()]);
}
