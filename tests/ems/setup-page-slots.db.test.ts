import { describe, expect, it } from "vitest";
import { loadSetup } from "@/lib/setup/load";
import { ensureEmsTestEnv } from "./support/env";
import { pagedAccountForFile } from "./support/setup-account";

/**
 * A cold setup read (no stored answer fresh: a plan's undo after the plan applied for a minute) asks
 * the API for at most four pages at once, both listings together: each page of 200 groups with their
 * webhooks is in the heap several times over while it is parsed, checked and stored, and four pages
 * of each listing side by side were bench:memory's peak. Against the sandbox over real HTTP, every
 * listing call held there for DELAY_MS, and its count of calls received read while the read runs.
 */

ensureEmsTestEnv();

/** 1,000 groups and 1,000 events: five pages of each at 200 a page. */
const ACCOUNT = { key: "ems_setup_slots_key", secret: "setup-slots-secret", groups: 1_000, events: 1_000, seed: 35 };
const DELAY_MS = 400;

const account = pagedAccountForFile(ACCOUNT);

describe("a cold setup read", () => {
  it("has at most four pages of both listings at the API at once, and still asks for several at a time", async () => {
    const actor = await account.readerOfTheAccount();
    const sandbox = account.sandbox();
    await sandbox.admin.injectFaults({ count: 100, delayMs: DELAY_MS, paths: "api", account: ACCOUNT.key });
    const arrivals: { at: number; calls: number }[] = [];
    let done = false;
    const read = loadSetup(actor).finally(() => (done = true));
    while (!done) {
      arrivals.push({ at: performance.now(), calls: (await sandbox.admin.stats()).apiRequests });
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    const outcome = await read;
    await sandbox.admin.clearFaults();
    expect(outcome.kind).toBe("ok");
    if (outcome.kind === "ok") expect(outcome.snapshot.data.groups).toHaveLength(ACCOUNT.groups);
    // Every call is held DELAY_MS: the calls that arrived within a shorter window are all in flight together.
    let most = 0;
    for (const later of arrivals) {
      const earlier = arrivals.find((sample) => sample.at >= later.at - (DELAY_MS - 80));
      if (earlier) most = Math.max(most, later.calls - earlier.calls);
    }
    expect(most).toBeLessThanOrEqual(4);
    // Several at a time, not one after another. (The polling above samples every 15 ms; on a loaded
    // machine its samples thin out and undercount what was in flight, so only 2 is asked for.)
    expect(most).toBeGreaterThanOrEqual(2);
  });
});
