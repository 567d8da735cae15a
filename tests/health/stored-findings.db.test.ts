import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { decryptSecret, encryptSecret } from "@/lib/crypto/secret-box";
import { dropAnswersUnderOldKeys } from "@/lib/ems";
import { saveCredential } from "@/lib/credentials/store";
import { answerAad } from "@/lib/ems/answer-cache";
import { loadHealthReport } from "@/lib/health/report";
import { loadHealthView, type HealthViewOutcome } from "@/lib/health/view";
import { loadSetup } from "@/lib/setup/load";
import { ensureEmsTestEnv, withEnv } from "@/tests/ems/support/env";
import { pagedAccountForFile } from "@/tests/ems/support/setup-account";

/**
 * Health's findings stored per setup (lib/setup/stored-results.ts, lib/health/view.ts): a process
 * that has not read the setup (after a restart, another instance) shows them without reading the
 * setup's stored answers, and a setup that changed in any way is never shown the findings of the
 * one before. Against the sandbox over real HTTP, on the real database; the oracle is
 * `loadHealthReport`, which reads the whole setup and checks it.
 */

ensureEmsTestEnv();

/** Three pages of groups and two of events at 200 a page. */
const ACCOUNT = { key: "ems_stored_findings_key", secret: "stored-findings-secret", groups: 450, events: 250, seed: 3434 };

const account = pagedAccountForFile(ACCOUNT);
const { freshProcess, readerOfTheAccount } = account;

type Ok = Extract<HealthViewOutcome, { kind: "ok" }>;

async function view(actor: Awaited<ReturnType<typeof readerOfTheAccount>>): Promise<{ report: Ok; statements: string[]; apiCalls: number }> {
  const before = (await account.sandbox().admin.stats()).apiRequests;
  const { result, statements } = await account.counter().record(() => loadHealthView(actor));
  if (result.kind !== "ok") throw new Error(`loadHealthView: ${result.kind}`);
  return { report: result, statements, apiCalls: (await account.sandbox().admin.stats()).apiRequests - before };
}

/** The findings as the whole setup gives them now (the page before stored findings). */
async function oracle(actor: Awaited<ReturnType<typeof readerOfTheAccount>>) {
  freshProcess();
  const report = await loadHealthReport(actor);
  if (report.kind !== "ok") throw new Error(`loadHealthReport: ${report.kind}`);
  return report;
}

const keysOf = (findings: readonly { ruleId: string; key: string; message: string }[]) =>
  findings.map((finding) => `${finding.ruleId} ${finding.key} ${finding.message}`);
const readsAnswers = (statements: string[]) => statements.filter((sql) => /"ciphertext"/.test(sql) && sql.includes('"EmsSharedAnswer"') && !/octet_length/.test(sql));

describe("Health's findings stored per setup", () => {
  it("a fresh process shows them without reading the setup's answers, the same as checking the whole setup", async () => {
    const actor = await readerOfTheAccount();
    const first = await view(actor);
    expect(first.report.source).toBe("computed");
    expect(first.apiCalls).toBe(5);
    expect(await prisma.setupResult.count({ where: { teamId: actor.teamId, kind: "health" } })).toBe(1);

    freshProcess();
    const fresh = await view(actor);
    expect(fresh.report.source).toBe("stored");
    expect(fresh.apiCalls).toBe(0);
    expect(readsAnswers(fresh.statements)).toEqual([]);
    expect(keysOf(fresh.report.active)).toEqual(keysOf(first.report.active));
    expect(fresh.report.setup).toEqual(first.report.setup);
    expect(fresh.report.setup).toMatchObject({ groups: ACCOUNT.groups, events: ACCOUNT.events, refreshCalls: 5 });
    expect([...fresh.report.hosts]).toEqual([...first.report.hosts]);

    const whole = await oracle(actor);
    expect(keysOf(fresh.report.active)).toEqual(keysOf(whole.active));
    expect(fresh.report.counts).toEqual(whole.counts);
  });

  it("a setup that changed is never shown the findings of the one before: refreshed, rewritten by another instance, or dropped by a write", async () => {
    const actor = await readerOfTheAccount();
    const first = await view(actor);
    const setup = await loadSetup(actor);
    if (setup.kind !== "ok") throw new Error(`loadSetup: ${setup.kind}`);
    const groups = setup.snapshot.data.groups;
    // A webhook on the last page of groups, so the change is on one page of three.
    const hook = groups.at(-1)!.webhooks!.find((webhook) => webhook.url?.startsWith("https://"))!;
    const plainHttp = (report: { active: readonly { ruleId: string; subjects: readonly { kind: string; id: number }[] }[] }) =>
      report.active.some((finding) => finding.ruleId === "plain-http-url" && finding.subjects.some((subject) => subject.kind === "webhook" && subject.id === hook.id));
    expect(plainHttp(first.report)).toBe(false);

    // 1. Changed in the EMS and refreshed (the refresh button): the pages are stored anew.
    await account.sandbox().admin.applyEdits(ACCOUNT.key, [{ kind: "set-url", webhookId: hook.id, url: "http://plain.example.com/in", by: "Jane in the EMS" }]);
    expect((await loadSetup(actor, { refresh: true })).kind).toBe("ok");
    freshProcess();
    const after = await view(actor);
    expect(after.report.source).toBe("computed");
    expect(plainHttp(after.report)).toBe(true);
    expect(keysOf(after.report.active)).toEqual(keysOf((await oracle(actor)).active));
    // Stored again, for the new setup: another process shows it from there.
    freshProcess();
    const again = await view(actor);
    expect(again.report.source).toBe("stored");
    expect(plainHttp(again.report)).toBe(true);

    // 2. The same answer stored anew by another instance (encrypted again: a new IV): computed again, not trusted by content.
    for (const row of await prisma.emsSharedAnswer.findMany({ where: { teamId: actor.teamId, ciphertext: { not: null } } })) {
      const aad = answerAad(row.teamId, row.fingerprint, row.queryHash);
      const ciphertext = encryptSecret(decryptSecret(row.ciphertext!, aad), aad);
      await prisma.emsSharedAnswer.update({
        where: { teamId_fingerprint_queryHash: { teamId: row.teamId, fingerprint: row.fingerprint, queryHash: row.queryHash } },
        data: { ciphertext },
      });
    }
    const rewritten = await view(actor);
    expect(rewritten.report.source).toBe("computed");
    expect(rewritten.apiCalls).toBe(0);
    expect(plainHttp(rewritten.report)).toBe(true);

    // 3. A write drops the credential's answers (lib/ems/writes.ts): the next view reads the setup again.
    await account.sandbox().admin.applyEdits(ACCOUNT.key, [{ kind: "set-url", webhookId: hook.id, url: "http://plain.example.com/again", by: "Jane in the EMS" }]);
    await prisma.emsSharedAnswer.deleteMany({ where: { teamId: actor.teamId } });
    const dropped = await view(actor);
    expect(dropped.report.source).toBe("computed");
    expect(plainHttp(dropped.report)).toBe(true);
  });

  it("pages older than the sharing window are asked of the API again, not answered from the stored findings", async () => {
    const actor = await readerOfTheAccount();
    await view(actor);
    await prisma.$executeRaw`UPDATE "EmsSharedAnswer" SET "fetchedAt" = "fetchedAt" - interval '2 hours' WHERE "teamId" = ${actor.teamId}`;
    freshProcess();
    const old = await view(actor);
    expect(old.report.source).toBe("computed");
    expect(old.apiCalls).toBe(5);
  });

  it("key rotation drops the results stored under the old key, with the answers", async () => {
    const actor = await readerOfTheAccount();
    await view(actor);
    expect(await prisma.setupResult.count({ where: { teamId: actor.teamId } })).toBe(1);
    const restore = withEnv({ CREDENTIAL_ENCRYPTION_KEYS: `next:${randomBytes(32).toString("base64")},${process.env.CREDENTIAL_ENCRYPTION_KEYS}` });
    try {
      await dropAnswersUnderOldKeys(prisma);
      expect(await prisma.setupResult.count({ where: { teamId: actor.teamId } })).toBe(0);
      expect(await prisma.emsSharedAnswer.count({ where: { teamId: actor.teamId, ciphertext: { not: null } } })).toBe(0);
    } finally {
      restore();
    }
  });

  it("two teams on the same account keep one copy of their identical findings, computed or opened from their own rows", async () => {
    const actor = await readerOfTheAccount();
    const other = await readerOfTheAccount();
    // `hosts` is made once per kept result (lib/health/view.ts `pairMap`): the same map is the same result.
    const computed = [await view(actor), await view(other)];
    expect(computed.map(({ report }) => report.source)).toEqual(["computed", "computed"]);
    expect(computed[1].report.hosts).toBe(computed[0].report.hosts);
    expect(computed[1].report.active).toEqual(computed[0].report.active);
    expect(await prisma.setupResult.count({ where: { teamId: { in: [actor.teamId, other.teamId] }, kind: "health" } })).toBe(2);
    // And the same findings as the memo a plan's impact reads for this setup (lib/health/checked.ts), not a third copy.
    const memo = await loadHealthReport(actor);
    if (memo.kind !== "ok") throw new Error(`loadHealthReport: ${memo.kind}`);
    expect(memo.active.length).toBeGreaterThan(0);
    expect(memo.active[0]).toBe(computed[0].report.active[0]);

    freshProcess();
    const opened = [await view(other), await view(actor)];
    expect(opened.map(({ report }) => report.source)).toEqual(["stored", "stored"]);
    expect(opened[1].report.hosts).toBe(opened[0].report.hosts);
    expect(keysOf(opened[1].report.active)).toEqual(keysOf(computed[0].report.active));

    // A team whose setup differs keeps its own: one webhook made plain HTTP in the EMS, refreshed by one team only.
    const setup = await loadSetup(actor);
    if (setup.kind !== "ok") throw new Error(`loadSetup: ${setup.kind}`);
    const hook = setup.snapshot.data.groups.at(-1)!.webhooks!.find((webhook) => webhook.url?.startsWith("https://"))!;
    await account.sandbox().admin.applyEdits(ACCOUNT.key, [{ kind: "set-url", webhookId: hook.id, url: "http://plain.example.com/shared", by: "Jane in the EMS" }]);
    expect((await loadSetup(actor, { refresh: true })).kind).toBe("ok");
    const changed = await view(actor);
    const unchanged = await view(other);
    expect(changed.report.source).toBe("computed");
    expect(unchanged.report.hosts).toBe(opened[0].report.hosts);
    expect(changed.report.hosts).not.toBe(unchanged.report.hosts);
    expect(changed.report.active.length).toBe(unchanged.report.active.length + 1);
  });

  it("another team on the same account has findings of its own; a replaced credential drops the team's", async () => {
    const actor = await readerOfTheAccount();
    const other = await readerOfTheAccount();
    await view(actor);
    freshProcess();
    expect((await view(other)).report.source).toBe("computed");
    expect(await prisma.setupResult.count({ where: { teamId: { in: [actor.teamId, other.teamId] } } })).toBe(2);
    await saveCredential(actor, { baseUrl: account.sandbox().baseUrl, consumerKey: ACCOUNT.key, consumerSecret: ACCOUNT.secret });
    expect(await prisma.setupResult.count({ where: { teamId: actor.teamId } })).toBe(0);
    expect(await prisma.setupResult.count({ where: { teamId: other.teamId } })).toBe(1);
  });
});
