import { describe, expect, it } from "vitest";
import { checkedCoverage } from "@/lib/coverage/checked";
import { loadCoverageView, storedCoverage, type CoverageViewOutcome } from "@/lib/coverage/stored";
import { loadSetup } from "@/lib/setup/load";
import type { TriggerKey } from "@/lib/setup/setup-data";
import { ensureEmsTestEnv } from "@/tests/ems/support/env";
import { pagedAccountForFile } from "@/tests/ems/support/setup-account";

/**
 * Coverage's rows stored per setup (lib/coverage/stored.ts on lib/setup/stored-results.ts): the
 * same rows as the grid computed from the whole setup, shown by a fresh process without reading the
 * setup's answers, one stored result per scope and required triggers, and never the rows of a setup
 * that has changed since. Against the sandbox over real HTTP, on the real database.
 */

ensureEmsTestEnv();

const ACCOUNT = { key: "ems_stored_coverage_key", secret: "stored-coverage-secret", groups: 450, events: 250, seed: 3535 };

const account = pagedAccountForFile(ACCOUNT);
const { freshProcess, readerOfTheAccount } = account;

type Actor = Awaited<ReturnType<typeof readerOfTheAccount>>;

async function view(actor: Actor, scope: "open" | "all", required: TriggerKey[] = []) {
  const { result, statements } = await account.counter().record(() => loadCoverageView(actor, scope, required));
  if (result.kind !== "ok") throw new Error(`loadCoverageView: ${result.kind}`);
  return { coverage: result as Extract<CoverageViewOutcome, { kind: "ok" }>, statements };
}

/** The rows as the whole setup gives them now. */
async function oracle(actor: Actor, scope: "open" | "all", required: TriggerKey[] = []) {
  freshProcess();
  const setup = await loadSetup(actor);
  if (setup.kind !== "ok") throw new Error(`loadSetup: ${setup.kind}`);
  return JSON.parse(JSON.stringify(storedCoverage(checkedCoverage(setup.snapshot.data, { now: new Date(), statuses: scope, requiredTriggers: required }), required)));
}

const readsAnswers = (statements: string[]) => statements.filter((sql) => /"ciphertext"/.test(sql) && sql.includes('"EmsSharedAnswer"') && !/octet_length/.test(sql));

describe("Coverage's rows stored per setup", () => {
  it("are the grid's rows, shown by a fresh process without reading the setup's answers, per scope and required triggers", async () => {
    const actor = await readerOfTheAccount();
    const required: TriggerKey[] = ["attendee:insert"];
    const first = await view(actor, "all", required);
    expect(first.coverage.source).toBe("computed");
    expect(first.coverage.coverage.events).toHaveLength(ACCOUNT.events);

    freshProcess();
    const fresh = await view(actor, "all", required);
    expect(fresh.coverage.source).toBe("stored");
    expect(readsAnswers(fresh.statements)).toEqual([]);
    expect(JSON.parse(JSON.stringify(fresh.coverage.coverage))).toEqual(await oracle(actor, "all", required));
    expect(fresh.coverage.coverage.failing).toBeGreaterThan(0);

    // Another scope, or other required triggers, is another result: computed from the setup once.
    freshProcess();
    const open = await view(actor, "open");
    expect(open.coverage.source).toBe("computed");
    expect(open.coverage.coverage.events.length).toBeLessThan(ACCOUNT.events);
    expect(JSON.parse(JSON.stringify(open.coverage.coverage))).toEqual(await oracle(actor, "open"));
  });

  it("a webhook changed in the EMS and refreshed shows in the rows at once", async () => {
    const actor = await readerOfTheAccount();
    const before = JSON.parse(JSON.stringify((await view(actor, "all")).coverage.coverage));
    const setup = await loadSetup(actor);
    if (setup.kind !== "ok") throw new Error(setup.kind);
    // Every webhook of the first group with events disabled: the counts of its events' cells change.
    const group = setup.snapshot.data.groups.find((candidate) =>
      candidate.webhooks?.some((webhook) => webhook.enabled !== false && (webhook.event_ids?.length ?? 0) > 0),
    )!;
    await account.sandbox().admin.applyEdits(
      ACCOUNT.key,
      group.webhooks!.map((webhook) => ({ kind: "set-enabled" as const, webhookId: webhook.id, enabled: false, by: "Jane in the EMS" })),
    );
    expect((await loadSetup(actor, { refresh: true })).kind).toBe("ok");
    const after = await view(actor, "all");
    expect(after.coverage.source).toBe("computed");
    const rows = JSON.parse(JSON.stringify(after.coverage.coverage));
    expect(rows).not.toEqual(before);
    expect(rows).toEqual(await oracle(actor, "all"));
  });
});
