import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { saveCredential, deleteCredential, getCredentialSummary } from "@/lib/credentials/store";
import { prisma } from "@/lib/db/prisma";
import { flushEmsState, forgetCredential, getEmsClient, usageByKind, type EmsClient } from "@/lib/ems";
import { answerCache, canonicalQuery, createAnswerCache, setAnswerLeaseMs, type AnswerCache } from "@/lib/ems/answer-cache";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { loadGroupPage } from "@/lib/listing/group";
import { loadListing } from "@/lib/listing/load";
import { pageBlockOf } from "@/lib/listing/page-block";
import { toEmsQuery } from "@/lib/listing/query";
import { parseListingSearchParams } from "@/lib/listing/search-params";
import { DEMO_CREDENTIALS, OTHER_CREDENTIALS } from "@/lib/sandbox/testing";
import { demoSandboxPerTest } from "@/tests/ems/support/sandbox";
import { addMember, createTeam } from "../teams/fixtures";
import { ensureEmsTestEnv, withEnv } from "./support/env";

/**
 * Shared answers (lib/ems/answer-cache.ts) against the sandbox over real HTTP, and the budget plan
 * (lib/ems/budget.ts). Two "instances" are two answer caches, each on its own database client
 * (own pool) and its own single-flight map, as two portal processes would have.
 */

ensureEmsTestEnv();

const { sandbox, credential } = demoSandboxPerTest();
let demoClient: EmsClient;
const instances: { db: PrismaClient; pool: pg.Pool; cache: AnswerCache }[] = [];

function newInstance(): AnswerCache {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 3 });
  const db = new PrismaClient({ adapter: new PrismaPg(pool) });
  const cache = createAnswerCache(db, new Map());
  instances.push({ db, pool, cache });
  return cache;
}

const apiCalls = async () => (await sandbox.admin.stats()).apiRequests;
const groups = (query = "") => parseListingSearchParams("webhook-groups", new URLSearchParams(query));

beforeAll(() => {
  demoClient = getEmsClient(credential);
});
afterAll(async () => {
  for (const instance of instances) await instance.db.$disconnect();
});
afterEach(() => setAnswerLeaseMs(null));

describe("one record", () => {
  it("concurrent reads of one group on two instances cost one call of 1 credit; a missing record is a shared null", async () => {
    const { teamId } = await createTeam();
    const [a, b] = [newInstance(), newInstance()];
    const first = await demoClient.list("webhook-groups", { fields: ["id"], perPage: 1 });
    const id = first.items[0].id;
    const before = await apiCalls();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).record(demoClient, "webhook-groups", id, { expand: ["webhooks"] }, { teamId })),
    );
    expect((await apiCalls()) - before).toBe(1);
    const asked = answers.filter((answer) => answer.source === "api");
    expect(asked).toHaveLength(1);
    // One credit, not a listing's ten.
    expect(first.rateLimit!.remaining - asked[0].rateLimit!.remaining).toBe(1);
    for (const answer of answers) expect(answer.item).toMatchObject({ id, webhooks: expect.any(Array) });

    // Another id, or the same id with other fields, is another answer; a 404 is answered once too.
    const missing = await a.record(demoClient, "webhook-groups", 999_999, {}, { teamId });
    expect(missing).toMatchObject({ item: null, source: "api" });
    expect(await b.record(demoClient, "webhook-groups", 999_999, {}, { teamId })).toMatchObject({ item: null, source: "shared" });
    expect((await a.record(demoClient, "webhook-groups", id, { fields: ["id"] }, { teamId })).source).toBe("api");
    expect((await apiCalls()) - before).toBe(3);
  });
});

describe("a record's page", () => {
  it("shares its record as long as the event names beside it, longer than a listing; not at all with sharing off", async () => {
    const actor = await createTeam();
    await saveCredential(actor, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    const id = (await demoClient.list("webhook-groups", { fields: ["id"], perPage: 1 })).items[0].id;
    let restore = withEnv({ EMS_SHARED_ANSWER_SECONDS: "1", EMS_COVERAGE_CACHE_SECONDS: "3" });
    try {
      const before = await apiCalls();
      expect(await loadGroupPage(actor, id)).toMatchObject({ kind: "ok", item: { id }, freshness: { ageSeconds: 0, windowSeconds: 3 } });
      // Past a listing's window, within the record's: still the shared answer.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await loadGroupPage(actor, id)).toMatchObject({ kind: "ok", freshness: { ageSeconds: 1 } });
      expect((await apiCalls()) - before).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(await loadGroupPage(actor, id)).toMatchObject({ kind: "ok", freshness: { ageSeconds: 0 } });
      expect((await apiCalls()) - before).toBe(2);
    } finally {
      restore();
    }
    restore = withEnv({ EMS_SHARED_ANSWER_SECONDS: "0", EMS_COVERAGE_CACHE_SECONDS: "60" });
    try {
      const before = await apiCalls();
      await loadGroupPage(actor, id);
      await loadGroupPage(actor, id);
      expect((await apiCalls()) - before).toBe(2);
    } finally {
      restore();
    }
  });
});

describe("shared answers between two instances", () => {
  it("concurrent identical requests on two instances cause one API call, and every one gets its answer", async () => {
    const { teamId } = await createTeam();
    const [a, b] = [newInstance(), newInstance()];
    // A token first, so that the race is about the listing, not the token.
    await demoClient.testConnection();
    const before = await apiCalls();
    const query = { fields: ["id", "name"], perPage: 20, sort: [{ field: "name", direction: "asc" }] } as const;
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        (i % 2 === 0 ? a : b).list(demoClient, "webhook-groups", structuredClone(query) as never, { teamId, waitForRateLimit: false }),
      ),
    );
    expect((await apiCalls()) - before).toBe(1);
    expect(answers.filter((answer) => answer.source === "api")).toHaveLength(1);
    const ids = answers[0].items.map((item) => item.id);
    expect(ids).toHaveLength(20);
    for (const answer of answers) expect(answer.items.map((item) => item.id)).toEqual(ids);
    // The stored answer is encrypted: no group name in the row.
    const row = await prisma.emsSharedAnswer.findFirstOrThrow({ where: { teamId } });
    expect(row.ciphertext).toMatch(/^v1:/);
    expect(row.ciphertext).not.toContain(String(answers[0].items[0].name));
  });

  it("a refresh causes one call, however many members press it at once on either instance", async () => {
    const { teamId } = await createTeam();
    const [a, b] = [newInstance(), newInstance()];
    const query = { fields: ["id"], perPage: 5 } as never;
    await a.list(demoClient, "webhook-groups", query, { teamId });
    const before = await apiCalls();
    expect((await b.list(demoClient, "webhook-groups", query, { teamId })).source).toBe("shared");
    expect(await apiCalls()).toBe(before);

    // The API holds the refresh's call a second: every press looks while it is in flight. (A press
    // that looks after an answer was stored is a new refresh, rightly: on a loaded machine the
    // sandbox's quick answer could land between two of the six looks.)
    await sandbox.admin.injectFaults({ count: 1, delayMs: 1_000, paths: "api" });
    const refreshed = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).list(demoClient, "webhook-groups", query, { teamId, refresh: true })));
    expect((await apiCalls()) - before).toBe(1);
    expect(refreshed.filter((answer) => answer.source === "api")).toHaveLength(1);
    for (const answer of refreshed) expect(answer.ageSeconds).toBe(0);
  });

  it("asks the API again once the window has passed", async () => {
    const { teamId } = await createTeam();
    const a = newInstance();
    const query = { fields: ["id"], perPage: 7 } as never;
    const before = await apiCalls();
    await a.list(demoClient, "webhook-groups", query, { teamId, windowMs: 1_000 });
    expect((await a.list(demoClient, "webhook-groups", query, { teamId, windowMs: 1_000 })).source).toBe("shared");
    expect((await apiCalls()) - before).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const later = await a.list(demoClient, "webhook-groups", query, { teamId, windowMs: 1_000 });
    expect(later.source).toBe("api");
    expect((await apiCalls()) - before).toBe(2);
  });

  it("waits for a lease holder that takes long, and takes the lease over when its holder dies", async () => {
    const { teamId } = await createTeam();
    const a = newInstance();
    const query = { fields: ["id"], perPage: 9 } as never;
    // A holder that claimed and died: its lease simply runs out.
    const { hash } = canonicalQuery("webhook-groups", query);
    await prisma.emsSharedAnswer.create({
      data: { teamId, fingerprint: demoClient.fingerprint, queryHash: hash, leaseId: "dead", leaseUntil: new Date(Date.now() + 400) },
    });
    const started = Date.now();
    const answer = await a.list(demoClient, "webhook-groups", query, { teamId });
    expect(answer.source).toBe("api");
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

describe("pages read in blocks of 200 rows", () => {
  it("paging through a list, back to its first page, or at 50 a page costs one call; each page is the API's own", async () => {
    const actor = await createTeam();
    await saveCredential(actor, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    const before = await apiCalls();
    const views = [];
    for (const search of ["", "page=2", "page=7", "", "page=2&per-page=50"]) views.push({ search, outcome: await loadListing(actor, groups(search)) });
    expect((await apiCalls()) - before).toBe(1);
    // Page 99 lies in the tenth block: one call, which the API answers with the last block, and
    // from it the last page, as the API would have answered page 99 itself.
    views.push({ search: "page=99", outcome: await loadListing(actor, groups("page=99")) });
    expect((await apiCalls()) - before).toBe(2);
    expect(views.at(-1)!.outcome).toMatchObject({ kind: "ok", meta: { currentPage: 7, pageCount: 7, totalCount: 140 } });
    // Another sort is another block.
    views.push({ search: "sort=-id&page=3", outcome: await loadListing(actor, groups("sort=-id&page=3")) });
    expect((await apiCalls()) - before).toBe(3);
    for (const { search, outcome } of views) {
      // The groups list always expands its webhooks (lib/listing/load.ts): the API's own page does too.
      const own = await demoClient.list("webhook-groups", toEmsQuery(groups(search), { expand: ["webhooks"] }) as never);
      expect(outcome, search).toMatchObject({ kind: "ok", meta: own.meta });
      expect(outcome.kind === "ok" && outcome.items, search).toEqual(own.items);
    }
  });

  it("an expanded listing is read in a block too: its page is the API's own", async () => {
    const actor = await createTeam();
    await saveCredential(actor, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    const before = await apiCalls();
    const expanded = await loadListing(actor, groups("expand=webhooks&page=2"));
    expect((await apiCalls()) - before).toBe(1);
    expect(expanded).toMatchObject({ kind: "ok", meta: { currentPage: 2, perPage: 20 } });
    expect(await prisma.emsSharedAnswer.count({ where: { teamId: actor.teamId } })).toBe(1);
    const own = await demoClient.list("webhook-groups", toEmsQuery(groups("expand=webhooks&page=2")) as never);
    expect(expanded.kind === "ok" && expanded.items).toEqual(own.items);
  });
});

describe("page views pace themselves", () => {
  it("under the low mark, an answer older than the window is still shared rather than spending the last credits", async () => {
    const { teamId } = await createTeam();
    const a = newInstance();
    await sandbox.admin.setRateLimit({ credits: 95, windowSeconds: 600 });
    const query = { fields: ["id"], perPage: 11 } as never;
    expect((await a.list(demoClient, "webhook-groups", query, { teamId })).source).toBe("api");
    await prisma.emsSharedAnswer.updateMany({ where: { teamId }, data: { fetchedAt: new Date(Date.now() - 60_000) } });
    // Eight listings (10 each), and a token (1) if the one cached before the sandbox's reset had to be
    // renewed, leave 15 or 14 credits of 95: under 20 % (19) either way, enough for one more call.
    for (let perPage = 1; perPage <= 7; perPage++) await demoClient.list("webhook-groups", { fields: ["id"], perPage });
    const before = await apiCalls();
    const answer = await a.list(demoClient, "webhook-groups", query, { teamId });
    expect(answer.source).toBe("shared");
    expect(answer.ageSeconds).toBeGreaterThanOrEqual(59);
    expect(await apiCalls()).toBe(before);
    // A refresh still asks.
    expect((await a.list(demoClient, "webhook-groups", query, { teamId, refresh: true })).source).toBe("api");
  });
});

describe("what a shared answer never crosses", () => {
  it("another team holding the same key shares nothing, and a lookup for a team one is not in finds nothing", async () => {
    const first = await createTeam();
    const second = await createTeam();
    const credentials = { baseUrl: sandbox.baseUrl, consumerKey: DEMO_CREDENTIALS.consumerKey, consumerSecret: DEMO_CREDENTIALS.consumerSecret };
    await saveCredential(first, credentials);
    await saveCredential(second, credentials);
    const before = await apiCalls();
    expect((await loadListing(first, groups())).kind).toBe("ok");
    expect((await loadListing(first, groups())).kind).toBe("ok");
    expect((await apiCalls()) - before).toBe(1);
    // The same key, the same query, another team: its own call, its own row.
    const other = await loadListing(second, groups());
    expect(other.kind === "ok" && other.freshness.ageSeconds).toBe(0);
    expect((await apiCalls()) - before).toBe(2);
    expect(await prisma.emsSharedAnswer.count({ where: { fingerprint: demoClient.fingerprint, teamId: { in: [first.teamId, second.teamId] } } })).toBe(2);
    // A crafted lookup: the second team's person asking for the first team's answer of the same key.
    // The page is stored as its block of 200 rows (lib/listing/page-block.ts).
    const query = pageBlockOf(toEmsQuery(groups(), { expand: ["webhooks"] })) as never;
    expect(await answerCache.peekForUser(second.userId, first.teamId, canonicalQuery("webhook-groups", query).hash)).toBeNull();
    expect(await answerCache.peekForUser(first.userId, first.teamId, canonicalQuery("webhook-groups", query).hash)).not.toBeNull();
    // Rows bound to their team: the first team's ciphertext copied into the second team's row does not decrypt (a miss, a call).
    const firstRow = await prisma.emsSharedAnswer.findFirstOrThrow({ where: { teamId: first.teamId, fingerprint: demoClient.fingerprint } });
    await prisma.emsSharedAnswer.update({
      where: { teamId_fingerprint_queryHash: { teamId: second.teamId, fingerprint: demoClient.fingerprint, queryHash: firstRow.queryHash } },
      data: { ciphertext: firstRow.ciphertext },
    });
    const copied = await loadListing(second, groups());
    expect(copied.kind === "ok" && copied.freshness.ageSeconds).toBe(0);
    expect((await apiCalls()) - before).toBe(3);
  });

  it("replacing or deleting the credential drops the team's answers: nothing is served from the old ones", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const demo = { baseUrl: sandbox.baseUrl, consumerKey: DEMO_CREDENTIALS.consumerKey, consumerSecret: DEMO_CREDENTIALS.consumerSecret };
    await saveCredential(owner, demo);
    await saveCredential(member, demo);
    const demoView = await loadListing(owner, groups());
    expect(demoView.kind).toBe("ok");
    expect(await prisma.emsSharedAnswer.count({ where: { teamId: owner.teamId } })).toBe(1);

    // The member switches to another account's key: their pages show that account, never the old answer.
    await saveCredential(member, { baseUrl: sandbox.baseUrl, ...OTHER_CREDENTIALS });
    const otherView = await loadListing(member, groups());
    expect(otherView.kind === "ok" && otherView.meta.totalCount).not.toBe(demoView.kind === "ok" && demoView.meta.totalCount);
    expect(otherView.kind === "ok" && otherView.freshness.ageSeconds).toBe(0);

    // The owner saves the same key again: the team's answers of it are dropped, the next view asks the API.
    await saveCredential(owner, demo);
    expect(await prisma.emsSharedAnswer.count({ where: { teamId: owner.teamId, fingerprint: demoClient.fingerprint } })).toBe(0);
    const before = await apiCalls();
    expect((await loadListing(owner, groups())).kind).toBe("ok");
    expect((await apiCalls()) - before).toBe(1);

    // Deleted: gone as well.
    const summary = await getCredentialSummary(owner);
    await deleteCredential(owner, { credentialId: summary!.id });
    expect(await prisma.emsSharedAnswer.count({ where: { teamId: owner.teamId, fingerprint: demoClient.fingerprint } })).toBe(0);
  });
});

describe("when the API answers 429", () => {
  it("shows the earlier answer, marked stale, instead of the error; without one, the rate-limit state", async () => {
    const actor = await createTeam();
    await saveCredential(actor, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    const fresh = await loadListing(actor, groups("sort=-id"));
    expect(fresh.kind).toBe("ok");
    // The answer ages past the window.
    await prisma.emsSharedAnswer.updateMany({ where: { teamId: actor.teamId }, data: { fetchedAt: new Date(Date.now() - 5 * 60_000) } });
    await sandbox.admin.injectFaults({ count: 5, status: 429, retryAfterSeconds: 40, paths: "api" });

    const stale = await loadListing(actor, groups("sort=-id"));
    expect(stale.kind).toBe("ok");
    if (stale.kind !== "ok" || fresh.kind !== "ok") return;
    expect(stale.freshness.stale).toBe(true);
    expect(stale.freshness.ageSeconds).toBeGreaterThanOrEqual(299);
    expect(stale.items.map((item) => item.id)).toEqual(fresh.items.map((item) => item.id));

    // A query never answered before has nothing to fall back on.
    expect(await loadListing(actor, groups("sort=name"))).toMatchObject({ kind: "rate-limited", retryAfterSeconds: 40 });
  });
});

describe("the budget plan", () => {
  it("keeps the reserve for page views: an export pauses above it until the window resets, and usage is recorded by kind", async () => {
    const actor = await createTeam();
    await saveCredential(actor, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    // 100 credits per 3 s: 30 % (30 credits) kept for page views.
    await sandbox.admin.setRateLimit({ credits: 100, windowSeconds: 3 });
    await forgetCredential(demoClient.fingerprint);
    await saveCredential(actor, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });

    const started = Date.now();
    const remainingAfterEachPage: number[] = [];
    const ids: number[] = [];
    for await (const page of demoClient.pages("webhook-groups", { fields: ["id"], perPage: 20 }, { budget: { kind: "export", teamId: actor.teamId } })) {
      ids.push(...page.items.map((item) => item.id));
      remainingAfterEachPage.push(page.rateLimit!.remaining);
    }
    expect(ids).toHaveLength(140);
    // Seven pages: six fit above the reserve (99 → 39), the seventh waits for the reset.
    expect(Math.min(...remainingAfterEachPage)).toBeGreaterThanOrEqual(30);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);

    // Page views may spend the reserve the export left: three listings fit right away.
    for (const query of ["sort=id", "sort=-id", "sort=name"]) expect((await loadListing(actor, groups(query))).kind).toBe("ok");

    await flushEmsState();
    const usage = await usageByKind(actor.teamId, demoClient.fingerprint);
    expect(usage.find((kind) => kind.kind === "export")).toMatchObject({ calls: 7, credits: 70 });
    expect(usage.find((kind) => kind.kind === "page")).toMatchObject({ calls: 3, credits: 30 });
    // Another team using the same key sees none of it.
    const other = await createTeam();
    expect((await usageByKind(other.teamId, demoClient.fingerprint)).every((kind) => kind.credits === 0)).toBe(true);
  });
});
