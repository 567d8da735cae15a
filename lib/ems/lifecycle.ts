import "server-only";
import { flushRateLimits } from "./rate-limit";
import { ems } from "./state";

/**
 * Waits for the client's background writes (rate-limit figures) to reach the database. Call it
 * before a script exits, and in tests before reading EmsTokenCache or closing the database.
 */
export async function flushEmsState(): Promise<void> {
  await Promise.allSettled([...ems.inflight.values()]);
  await flushRateLimits();
}
