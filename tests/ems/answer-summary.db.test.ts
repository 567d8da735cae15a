import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { saveCredential } from "@/lib/credentials/store";
import { prisma } from "@/lib/db/prisma";
import { getEmsClient, type EmsClient, type WebhookGroupQuery } from "@/lib/ems";
import { decryptSecret, encryptSecret } from "@/lib/crypto/secret-box";
import { answerAad, answerCache, canonicalQuery, createAnswerCache, type AnswerCache } from "@/lib/ems/answer-cache";
import { forgetOpenedAnswers, summaryOf } from "@/lib/ems/opened-answers";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { loadSetup, type SetupOutcome } from "@/lib/setup/load";
import { DEMO_CREDENTIALS } from "@/lib/sandbox/testing";
import { demoSandboxPerTest } from "@/tests/ems/support/sandbox";
import { createTeam } from "../teams/fixtures";
import { ensureEmsTestEnv } from "./support/env";

/**
 * Shared answers read by summary (lib/ems/answer-cache.ts, lib/ems/opened-answers.ts): a look at a
 * row brings its ciphertext's length, end and key id, computed by PostgreSQL, and the ciphertext
 * itself only when this process has not opened it. Against the sandbox over real HTTP; the bytes
 * the database sends an instance are counted on its connections' sockets.
 */

ensureEmsTestEnv();

const { sandbox, credential } = demoSandboxPerTest();
let demoClient: EmsClient;
const instances: { db: PrismaClient; pool: pg.Pool }[] = [];

/** An answer cache on its own pool (another portal instance), and the bytes its database connections have received. */
function newInstance(): { cache: AnswerCache; bytesFromDatabase: () => number } {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
  let bytes = 0;
  pool.on("connect", (client) => {
    // node-postgres keeps the socket on the client's connection: what arrives on it is what the database sent.
    (client as unknown as { connection: { stream: NodeJS.ReadableStream } }).connection.stream.on("data", (chunk: Buffer) => (bytes += chunk.length));
  });
  const db = new PrismaClient({ adapter: new PrismaPg(pool) });
  instances.push({ db, pool });
  return { cache: createAnswerCache(db, new Map()), bytesFromDatabase: () => bytes };
}

/** Every group of the demo account with its webhooks: one answer of a few hundred kB, as a Health page reads. */
const EVERY_GROUP: WebhookGroupQuery = {
  fields: ["id", "name", "headers", "notification_emails"],
  expand: ["webhooks"],
  perPage: 200,
  sort: [{ field: "id", direction: "asc" }],
};
const query = () => structuredClone(EVERY_GROUP);
const apiCalls = async () => (await sandbox.admin.stats()).apiRequests;

beforeAll(() => {
  demoClient = getEmsClient(credential);
});
afterAll(async () => {
  for (const instance of instances) await instance.db.$disconnect();
});
beforeEach(() => forgetOpenedAnswers());

describe("a shared answer read by summary", () => {
  it("sends the ciphertext once per process: later views of the same answer read only its summary", async () => {
    const { teamId } = await createTeam();
    const a = newInstance();
    const asked = await a.cache.list(demoClient, "webhook-groups", query(), { teamId });
    expect(asked.source).toBe("api");
    const { ciphertext } = await prisma.emsSharedAnswer.findFirstOrThrow({ where: { teamId }, select: { ciphertext: true } });
    expect(ciphertext!.length).toBeGreaterThan(100_000);
    // The process that stored the answer has it opened already: the next view reads the summary only.
    let before = a.bytesFromDatabase();
    expect((await a.cache.list(demoClient, "webhook-groups", query(), { teamId })).source).toBe("shared");
    expect(a.bytesFromDatabase() - before).toBeLessThan(2_000);

    // Another process (here: this one, having forgotten) reads the ciphertext on its first view…
    forgetOpenedAnswers();
    before = a.bytesFromDatabase();
    const first = await a.cache.list(demoClient, "webhook-groups", query(), { teamId });
    expect(first.source).toBe("shared");
    expect(a.bytesFromDatabase() - before).toBeGreaterThan(ciphertext!.length);
    // …the next ones only the row's summary, and get the same answer.
    before = a.bytesFromDatabase();
    const second = await a.cache.list(demoClient, "webhook-groups", query(), { teamId });
    expect(a.bytesFromDatabase() - before).toBeLessThan(2_000);
    expect(second.items).toBe(first.items);
    expect(second.items.map((group) => [group.id, group.name])).toEqual(asked.items.map((group) => [group.id, group.name]));
  });

  it("the request that asked serves its answer as every instance reads it back: the stored records, key for key, frozen and kept", async () => {
    const { teamId } = await createTeam();
    const a = newInstance();
    const asked = await a.cache.list(demoClient, "webhook-groups", query(), { teamId });
    expect(asked.source).toBe("api");
    // Kept as the opened answer of the row it stored (not decrypted and parsed a second time): what it
    // serves must be what another instance decrypts from that row, undefined keys and all.
    const { hash } = canonicalQuery("webhook-groups", query());
    const { ciphertext } = await prisma.emsSharedAnswer.findFirstOrThrow({ where: { teamId }, select: { ciphertext: true } });
    const stored = JSON.parse(decryptSecret(ciphertext!, answerAad(teamId, demoClient.fingerprint, hash))) as { items: unknown[]; meta: unknown };
    expect(asked.items.length).toBeGreaterThan(50);
    expect(asked.items).toStrictEqual(stored.items);
    expect(asked.meta).toStrictEqual(stored.meta);
    expect(asked.summary).toEqual(summaryOf(ciphertext!));
    expect(Object.isFrozen(asked.items) && Object.isFrozen(asked.items[0]) && Object.isFrozen(asked.items[0].webhooks)).toBe(true);
    const next = await a.cache.list(demoClient, "webhook-groups", query(), { teamId });
    expect(next.source).toBe("shared");
    expect(next.items).toBe(asked.items);
  });

  it("serves the newer answer another instance stored, not the one opened before, even at the same length", async () => {
    const { teamId } = await createTeam();
    const [a, b] = [newInstance(), newInstance()];
    await a.cache.list(demoClient, "webhook-groups", query(), { teamId });
    const opened = await a.cache.list(demoClient, "webhook-groups", query(), { teamId });
    expect(opened.source).toBe("shared");
    const group = opened.items[0];
    const before = await prisma.emsSharedAnswer.findFirstOrThrow({ where: { teamId }, select: { ciphertext: true } });

    // The group renamed in the EMS to a name of the same length, and read again by the other instance.
    const name = group.name ?? "";
    const renamed = `${name.slice(1)}${name[0] === "Z" ? "Y" : "Z"}`;
    expect(name.length).toBeGreaterThan(1);
    expect(renamed).toHaveLength(name.length);
    await sandbox.admin.applyEdits(DEMO_CREDENTIALS.consumerKey, [{ kind: "rename-group", groupId: group.id, name: renamed }]);
    const refreshed = await b.cache.list(demoClient, "webhook-groups", query(), { teamId, refresh: true });
    expect(refreshed.source).toBe("api");
    const after = await prisma.emsSharedAnswer.findFirstOrThrow({ where: { teamId }, select: { ciphertext: true } });
    // Same length: only the ciphertext's beginning (its IV, new with every encryption) tells the rows apart.
    expect(after.ciphertext!.length).toBe(before.ciphertext!.length);

    const calls = await apiCalls();
    const seen = await a.cache.list(demoClient, "webhook-groups", query(), { teamId });
    expect(seen.source).toBe("shared");
    expect(seen.items.find((item) => item.id === group.id)?.name).toBe(renamed);
    expect(await apiCalls()).toBe(calls);
  });

  it("serves the answer another process stored in the row, not the one opened here, even at the same length", async () => {
    const { teamId } = await createTeam();
    const a = newInstance();
    await a.cache.list(demoClient, "webhook-groups", query(), { teamId });
    const opened = await a.cache.list(demoClient, "webhook-groups", query(), { teamId });
    expect(opened.source).toBe("shared");
    const group = opened.items[0];
    const name = group.name ?? "";
    const renamed = `${name.slice(1)}${name[0] === "Z" ? "Y" : "Z"}`;

    // What another portal process does when it stores a newer answer: encrypt it for the row, write it.
    // (This process's memory knows nothing of it.)
    const { hash } = canonicalQuery("webhook-groups", query());
    const aad = answerAad(teamId, demoClient.fingerprint, hash);
    const before = await prisma.emsSharedAnswer.findFirstOrThrow({ where: { teamId }, select: { ciphertext: true } });
    const plaintext = decryptSecret(before.ciphertext!, aad);
    expect(plaintext).toContain(JSON.stringify(name));
    const ciphertext = encryptSecret(plaintext.replace(JSON.stringify(name), JSON.stringify(renamed)), aad);
    expect(ciphertext.length).toBe(before.ciphertext!.length);
    await prisma.$executeRaw`
      UPDATE "EmsSharedAnswer" SET "ciphertext" = ${ciphertext}, "fetchedAt" = (now() AT TIME ZONE 'UTC')
      WHERE "teamId" = ${teamId} AND "fingerprint" = ${demoClient.fingerprint} AND "queryHash" = ${hash}`;

    const calls = await apiCalls();
    const seen = await a.cache.list(demoClient, "webhook-groups", query(), { teamId });
    expect(seen.source).toBe("shared");
    expect(seen.items.find((item) => item.id === group.id)?.name).toBe(renamed);
    expect(await apiCalls()).toBe(calls);
  });

  it("the summary PostgreSQL computes for the peek is the ciphertext's own, and a listing view gets the stored answer through it", async () => {
    const actor = await createTeam();
    await saveCredential(actor, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    const stored = await answerCache.list(demoClient, "webhook-groups", query(), { teamId: actor.teamId });
    const { hash } = canonicalQuery("webhook-groups", query());
    const peeked = await answerCache.peekForUser(actor.userId, actor.teamId, hash);
    const { ciphertext } = await prisma.emsSharedAnswer.findFirstOrThrow({ where: { teamId: actor.teamId }, select: { ciphertext: true } });
    expect(peeked).toMatchObject({ fingerprint: demoClient.fingerprint, queryHash: hash, summary: summaryOf(ciphertext!) });
    expect(peeked!.summary!.keyId).toMatch(/^[A-Za-z0-9_-]+$/);

    // Twice through the peek: once opened from the ciphertext, once remembered by its summary.
    for (let view = 0; view < 2; view++) {
      const answer = await answerCache.list(demoClient, "webhook-groups", query(), { teamId: actor.teamId, peeked });
      expect(answer.source).toBe("shared");
      expect(answer.items.map((group) => group.id)).toEqual(stored.items.map((group) => group.id));
    }
  });

  it("a setup read from the same opened answers is the same frozen object, and a newer stored page makes a new one", async () => {
    const actor = await createTeam();
    await saveCredential(actor, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    const setup = async (options: { refresh?: boolean } = {}) => {
      const outcome: SetupOutcome = await loadSetup(actor, options);
      if (outcome.kind !== "ok") throw new Error(`loadSetup: ${outcome.kind}`);
      return outcome.snapshot.data;
    };
    const asked = await setup();
    const opened = await setup();
    expect(opened.groups).toEqual(asked.groups);
    expect(Object.isFrozen(opened.groups) && Object.isFrozen(opened.events)).toBe(true);
    const again = await setup();
    expect(again.groups).toBe(opened.groups);
    expect(again.events).toBe(opened.events);

    const group = opened.groups[0];
    await sandbox.admin.applyEdits(DEMO_CREDENTIALS.consumerKey, [{ kind: "rename-group", groupId: group.id, name: "Renamed in the EMS" }]);
    await setup({ refresh: true });
    const after = await setup();
    expect(after.groups).not.toBe(opened.groups);
    expect(after.groups.find((item) => item.id === group.id)?.name).toBe("Renamed in the EMS");
    // The events' page was stored anew too (a refresh asks for every page): a new array, the same records.
    expect(after.events).toEqual(opened.events);
  });
});
