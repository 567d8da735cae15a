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

/**
 * Writes out the client's background work (flushEmsState), then, whether that worked or not, forgets everything this process
 * knows: tokens, rate limits, failing marks, pending usage and their timers. For a process that goes
 * on serving another world: the test workers whose database files share their modules
 * (tests/setup/db-env.ts), where a later file's sandbox may get an earlier one's port.
 */
export async function forgetEmsState(): Promise<void> {
  try {
    await flushEmsState();
  } finally {
    for (const writer of ems.rateLimitWriters.values()) if (writer.timer) clearTimeout(writer.timer);
    if (ems.usage.timer) clearTimeout(ems.usage.timer);
    ems.usage.timer = null;
    ems.usage.pending.clear();
    for (const map of [ems.tokens, ems.inflight, ems.failing, ems.rateLimits, ems.rateLimitWriters, ems.answerFlights]) map.clear();
    ems.pendingWrites.clear();
  }
}
