import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { saveCredential } from "@/lib/credentials/store";
import { prisma } from "@/lib/db/prisma";
import { credentialFingerprint, flushEmsState, getEmsWriter, type EmsCredential } from "@/lib/ems";
import { forgetOpenedAnswers } from "@/lib/ems/opened-answers";
import { loadSetup, setupPageHashes } from "@/lib/setup/load";
import type { StartedSandbox } from "@/lib/sandbox/testing";
import { startAllowedSandbox } from "@/tests/ems/support/sandbox";
import { createTeam } from "../teams/fixtures";
import { ensureEmsTestEnv } from "./support/env";

/**
 * A write drops only the stored answers it may have changed (lib/ems/writes.ts `forgetAnswersOf`,
 * lib/ems/answer-cache.ts `answersUnchangedBy`): of the setup's pages, the page of groups that holds
 * the record written; the pages of events and the other pages of groups stay, so the next view asks
 * the API for one page, not all of them. Every other answer goes, as before. Against the sandbox over
 * real HTTP, on the real database.
 */

ensureEmsTestEnv();

/** Three pages of groups and two of events at 200 a page. */
const ACCOUNT = { key: "ems_write_pages_key", secret: "write-pages-secret", groups: 450, events: 250, seed: 4545 };

let sandbox: StartedSandbox;
beforeAll(async () => {
  sandbox = await startAllowedSandbox({ accounts: [ACCOUNT] });
});
afterAll(async () => {
  await flushEmsState();
  await sandbox?.close();
});
beforeEach(async () => {
  forgetOpenedAnswers();
  await sandbox.admin.reset();
});

const credential = (): EmsCredential => ({
  fingerprint: credentialFingerprint(sandbox.baseUrl, ACCOUNT.key, ACCOUNT.secret),
  baseUrl: sandbox.baseUrl,
  consumerKey: ACCOUNT.key,
  consumerSecret: ACCOUNT.secret,
});

async function readerOfTheAccount() {
  const actor = await createTeam();
  await saveCredential(actor, { baseUrl: sandbox.baseUrl, consumerKey: ACCOUNT.key, consumerSecret: ACCOUNT.secret });
  return actor;
}

async function setupOf(actor: Awaited<ReturnType<typeof readerOfTheAccount>>) {
  const before = (await sandbox.admin.stats()).apiRequests;
  const setup = await loadSetup(actor);
  if (setup.kind !== "ok") throw new Error(`loadSetup: ${setup.kind}`);
  return { data: setup.snapshot.data, apiCalls: (await sandbox.admin.stats()).apiRequests - before };
}

/** Which of the setup's pages are stored: "g1".."g3", "e1", "e2". */
async function storedPages(teamId: string): Promise<string[]> {
  const hashes = setupPageHashes();
  const rows = await prisma.emsSharedAnswer.findMany({ where: { teamId, ciphertext: { not: null } }, select: { queryHash: true } });
  const names = rows.map(({ queryHash }) =>
    hashes.groups.includes(queryHash)
      ? `g${hashes.groups.indexOf(queryHash) + 1}`
      : hashes.events.includes(queryHash)
        ? `e${hashes.events.indexOf(queryHash) + 1}`
        : "other",
  );
  return names.sort();
}

describe("a write drops only the setup's page that holds what it wrote", () => {
  it("a webhook changed: its group's page goes, the next setup asks for that page alone and shows the change", async () => {
    const actor = await readerOfTheAccount();
    const first = await setupOf(actor);
    expect(first.apiCalls).toBe(5);
    expect(await storedPages(actor.teamId)).toEqual(["e1", "e2", "g1", "g2", "g3"]);
    // A webhook of a group on the second page (groups 201 to 400).
    const group = first.data.groups[250];
    const hook = group.webhooks![0];
    await getEmsWriter(credential()).updateWebhook(hook.id, { name: "Renamed by a plan" });
    expect(await storedPages(actor.teamId)).toEqual(["e1", "e2", "g1", "g3"]);

    const after = await setupOf(actor);
    expect(after.apiCalls).toBe(1);
    expect(after.data.groups[250].webhooks!.find((webhook) => webhook.id === hook.id)!.name).toBe("Renamed by a plan");
    expect(after.data.groups).toHaveLength(ACCOUNT.groups);
  });

  it("a webhook created in a group, and a group renamed: that group's page goes", async () => {
    const actor = await readerOfTheAccount();
    const { data } = await setupOf(actor);
    await getEmsWriter(credential()).createWebhook({ name: "New one", url: "https://hooks.example.com/new", trigger_object: "registrant", group_id: data.groups[10].id });
    expect(await storedPages(actor.teamId)).toEqual(["e1", "e2", "g2", "g3"]);
    await setupOf(actor);
    await getEmsWriter(credential()).updateWebhookGroup(data.groups[420].id, { name: "Renamed group" });
    expect(await storedPages(actor.teamId)).toEqual(["e1", "e2", "g1", "g2"]);
    const after = await setupOf(actor);
    expect(after.apiCalls).toBe(1);
    expect(after.data.groups[420].name).toBe("Renamed group");
    expect(after.data.groups[10].webhooks!.map((webhook) => webhook.name)).toContain("New one");
  });

  it("a group created changes every page of groups; a process that has not opened the pages drops them all; other answers always go", async () => {
    const actor = await readerOfTheAccount();
    await setupOf(actor);
    await getEmsWriter(credential()).createWebhookGroup({ name: "A new group" });
    expect(await storedPages(actor.teamId)).toEqual(["e1", "e2"]);
    expect((await setupOf(actor)).apiCalls).toBe(3);

    // Another process wrote: it cannot tell which page holds the webhook, and keeps the events only.
    const { data } = await setupOf(actor);
    forgetOpenedAnswers();
    await getEmsWriter(credential()).updateWebhook(data.groups[0].webhooks![0].id, { name: "Written elsewhere" });
    expect(await storedPages(actor.teamId)).toEqual(["e1", "e2"]);
  });
});
