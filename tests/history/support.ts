import { afterAll, beforeAll } from "vitest";
import { ensureEmsTestEnv } from "@/tests/ems/support/env";
import { startPortalSandbox, type PortalSandbox } from "@/tests/actions/support/sandbox";

/**
 * The embedded sandbox for a file of history tests, with the syncs' share of the budget raised to
 * 70 %, so that a sync of the demo account is never paced unless a test lowers it. Returns the
 * running sandbox's getter (it starts in beforeAll).
 */
export function historyTestPortal(): () => PortalSandbox {
  let portal: PortalSandbox | undefined;
  beforeAll(async () => {
    ensureEmsTestEnv();
    process.env.HISTORY_SYNC_BUDGET_PERCENT = "70";
    portal = await startPortalSandbox();
  });
  afterAll(async () => {
    delete process.env.HISTORY_SYNC_BUDGET_PERCENT;
    await portal?.close();
  });
  return () => portal!;
}
