import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { forgetOpenedAnswers } from "@/lib/ems/opened-answers";
import { loadSetup } from "@/lib/setup/load";
import type { SetupData } from "@/lib/setup/setup-data";
import { createTeam } from "../teams/fixtures";
import { ensureEmsTestEnv } from "./support/env";
import { pagedAccountForFile } from "./support/setup-account";

/**
 * A setup of several pages read by a process that has not opened its stored answers (after a
 * restart, or on a second instance): every page's row looked at in one statement and the
 * ciphertexts read in one more (lib/ems/answer-cache.ts `peekMany`), not two statements a page one
 * after another. Against the sandbox over real HTTP, on the real database.
 */

ensureEmsTestEnv();

/** 450 groups and 250 events: three pages of groups and two of events at 200 a page. */
const ACCOUNT = { key: "ems_setup_pages_key", secret: "setup-pages-secret", groups: 450, events: 250, seed: 34 };

const account = pagedAccountForFile(ACCOUNT);
const { readerOfTheAccount } = account;

async function setupOf(actor: Awaited<ReturnType<typeof createTeam>>): Promise<{ data: SetupData; statements: string[]; apiCalls: number }> {
  const before = (await account.sandbox().admin.stats()).apiRequests;
  const { result, statements } = await account.counter().record(() => loadSetup(actor));
  if (result.kind !== "ok") throw new Error(`loadSetup: ${result.kind}`);
  return {
    data: result.snapshot.data,
    statements: statements.filter((sql) => sql.includes('"EmsSharedAnswer"')),
    apiCalls: (await account.sandbox().admin.stats()).apiRequests - before,
  };
}

describe("a setup's stored pages, read by a process that has not opened them", () => {
  it("costs one look at every page's row and one read of their ciphertexts, and gives the same setup", async () => {
    const actor = await readerOfTheAccount();
    const asked = await setupOf(actor);
    expect(asked.apiCalls).toBe(5);
    expect(asked.data.groups).toHaveLength(ACCOUNT.groups);
    expect(asked.data.events).toHaveLength(ACCOUNT.events);

    // Another process: nothing opened. Before, two statements a page (its look, then its ciphertext): ten.
    forgetOpenedAnswers();
    const fresh = await setupOf(actor);
    expect(fresh.apiCalls).toBe(0);
    expect(fresh.statements).toHaveLength(2);
    expect(fresh.data.groups.map((group) => [group.id, group.name, group.webhooks?.length])).toEqual(
      asked.data.groups.map((group) => [group.id, group.name, group.webhooks?.length]),
    );
    expect(fresh.data.events).toEqual(asked.data.events);

    // Opened now: the next view looks at the rows (one statement) and reads no ciphertext; the same frozen setup.
    const next = await setupOf(actor);
    expect(next.statements).toHaveLength(1);
    expect(next.statements[0]).not.toMatch(/SELECT "queryHash", "ciphertext"/);
    expect(next.data.groups).toBe(fresh.data.groups);
    expect(next.data.events).toBe(fresh.data.events);
  });

  it("two teams reading one account keep one copy of its records: their answers are stored apart, their records opened once", async () => {
    const first = await readerOfTheAccount();
    const second = await readerOfTheAccount();
    const a = await setupOf(first);
    const b = await setupOf(second);
    expect(b.apiCalls).toBe(5);
    expect(b.data.groups).toBe(a.data.groups);
    expect(b.data.events).toBe(a.data.events);
    expect(Object.isFrozen(b.data.groups[0])).toBe(true);
    // Records that differ are not shared: a group renamed in the EMS, read by the second team again.
    const renamed = a.data.groups[0];
    await account.sandbox().admin.applyEdits(ACCOUNT.key, [{ kind: "rename-group", groupId: renamed.id, name: "Renamed for one team", by: "Jane in the EMS" }]);
    const refreshed = await loadSetup(second, { refresh: true });
    if (refreshed.kind !== "ok") throw new Error(refreshed.kind);
    expect(refreshed.snapshot.data.groups[0].name).toBe("Renamed for one team");
    expect(a.data.groups[0].name).toBe(renamed.name);
    expect(refreshed.snapshot.data.groups[1]).not.toBe(a.data.groups[1]);
    expect(refreshed.snapshot.data.groups[250]).toBe(a.data.groups[250]);
  });

  it("opens no page older than the sharing window: those are asked of the API again, as before", async () => {
    const actor = await readerOfTheAccount();
    await setupOf(actor);
    // The events' pages stored two hours ago: past the window (and the hour a stale answer may be served).
    await prisma.$executeRaw`
      UPDATE "EmsSharedAnswer" SET "fetchedAt" = "fetchedAt" - interval '2 hours'
      WHERE "teamId" = ${actor.teamId} AND "queryHash" IN (
        SELECT "queryHash" FROM "EmsSharedAnswer" WHERE "teamId" = ${actor.teamId} ORDER BY length("ciphertext") ASC LIMIT 2)`;
    forgetOpenedAnswers();
    const fresh = await setupOf(actor);
    expect(fresh.apiCalls).toBe(2);
    expect(fresh.data.groups).toHaveLength(ACCOUNT.groups);
    expect(fresh.data.events).toHaveLength(ACCOUNT.events);
    const read = fresh.statements.filter((sql) => /SELECT "queryHash", "ciphertext"/.test(sql));
    expect(read).toHaveLength(1);
  });
});
