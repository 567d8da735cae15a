// Change history's sync (lib/history/sync.ts) against the sandbox over real HTTP and a real
// database: the baseline, diffs of edits made in the "EMS web app" (the sandbox's edit control),
// header values kept encrypted, the claim (one sync at a time), pausing, and the budget share.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { saveCredential } from "@/lib/credentials/store";
import { prisma } from "@/lib/db/prisma";
import { credentialFingerprint, flushBudgetUsage } from "@/lib/ems";
import { parseFeedParams } from "@/lib/history/feed-params";
import { listChanges } from "@/lib/history/feed";
import { groupAsOf } from "@/lib/history/as-of";
import { syncTracker } from "@/lib/history/sync";
import { startTracking } from "@/lib/history/trackers";
import { DEMO_CREDENTIALS } from "@/lib/sandbox/demo-credentials";
import type { Actor } from "@/lib/access/actor";
import { ensureEmsTestEnv } from "@/tests/ems/support/env";
import { createTeam } from "@/tests/teams/fixtures";
import { startPortalSandbox, type PortalSandbox } from "@/tests/actions/support/sandbox";

let portal: PortalSandbox;
beforeAll(async () => {
  ensureEmsTestEnv();
  portal = await startPortalSandbox();
});
afterAll(() => portal?.close());
// Every test here reads the same account with the same credential, and history's share of its rate
// limit is counted per credential: each test starts with nothing spent.
beforeEach(async () => {
  await flushBudgetUsage();
  await prisma.emsBudgetUsage.deleteMany({
    where: { kind: "sync", fingerprint: credentialFingerprint(portal.baseUrl, DEMO_CREDENTIALS.consumerKey, DEMO_CREDENTIALS.consumerSecret) },
  });
});

async function trackedTeam(): Promise<{ owner: Actor; trackerId: string }> {
  const owner = await createTeam();
  await saveCredential(owner, { baseUrl: portal.baseUrl, ...DEMO_CREDENTIALS });
  const { id } = await startTracking(owner, { intervalMinutes: 15 });
  return { owner, trackerId: id };
}

const allText = async (trackerId: string) =>
  JSON.stringify([
    await prisma.trackedRecord.findMany({ where: { trackerId }, select: { state: true, name: true } }),
    await prisma.setupChange.findMany({ where: { trackerId }, select: { before: true, after: true, recordName: true, groupName: true } }),
  ]);

describe("syncTracker", () => {
  it("the first sync is the baseline: every record stored, nothing reported as a change, a checkpoint taken; the next finds nothing", async () => {
    const { trackerId } = await trackedTeam();
    const first = await syncTracker(trackerId, { trigger: "manual", force: true });
    expect(first).toMatchObject({ status: "ok", baseline: true, changes: 0, calls: 2, credits: 20 });
    const counts = await prisma.trackedRecord.groupBy({ by: ["kind"], where: { trackerId }, _count: true });
    expect(Object.fromEntries(counts.map((row) => [row.kind, row._count]))).toMatchObject({ group: 140, event: 60 });
    expect(await prisma.setupChange.count({ where: { trackerId } })).toBe(0);
    expect(await prisma.setupCheckpoint.count({ where: { trackerId } })).toBe(1);
    const tracker = await prisma.changeTracker.findUniqueOrThrow({ where: { id: trackerId } });
    expect(tracker.leaseId).toBeNull();
    expect(tracker.nextRunAt.getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);

    const second = await syncTracker(trackerId, { trigger: "manual", force: true });
    expect(second).toMatchObject({ status: "ok", baseline: false, changes: 0 });
  });

  it("a scheduled run syncs only a tracker that is due", async () => {
    const { trackerId } = await trackedTeam();
    expect((await syncTracker(trackerId, { trigger: "schedule" })).status).toBe("ok");
    expect(await syncTracker(trackerId, { trigger: "schedule" })).toEqual({ status: "busy" });
  });

  it("two syncs of one tracker at once: one runs, the other is told it is busy", async () => {
    const { trackerId } = await trackedTeam();
    const outcomes = await Promise.all([syncTracker(trackerId, { trigger: "manual", force: true }), syncTracker(trackerId, { trigger: "schedule", force: true })]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["busy", "ok"]);
    expect(await prisma.setupSync.count({ where: { trackerId } })).toBe(1);
  });

  it("finds what a person changed in the EMS, field by field, with who and when; header values stay encrypted", async () => {
    const { owner, trackerId } = await trackedTeam();
    await syncTracker(trackerId, { trigger: "manual", force: true });
    const group = await prisma.trackedRecord.findFirstOrThrow({ where: { trackerId, kind: "webhook" }, orderBy: { recordId: "asc" } });
    const hookId = group.recordId;
    const before = new Date();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const secret = `sk_live_${Math.random().toString(36).slice(2)}`;
    portal.sandbox.applyEdits(DEMO_CREDENTIALS.consumerKey, [
      { kind: "set-url", webhookId: hookId, url: "https://hooks.example.com/changed", by: "jane@example.com" },
      { kind: "set-enabled", webhookId: hookId, enabled: false, by: "jane@example.com" },
      { kind: "set-header", target: "webhook", id: hookId, key: "X-Api-Key", value: secret, by: "jane@example.com" },
    ]);
    const outcome = await syncTracker(trackerId, { trigger: "manual", force: true });
    expect(outcome).toMatchObject({ status: "ok", changes: 3 });
    const feed = await listChanges(owner, parseFeedParams({ webhook: String(hookId) }));
    expect(feed.entries.map((entry) => entry.field).sort()).toEqual(["enabled", "headers", "url"]);
    expect(feed.entries.every((entry) => entry.changedBy === "jane@example.com")).toBe(true);
    expect(feed.entries.find((entry) => entry.field === "url")!.what).toMatch(/^URL changed from .* to https:\/\/hooks\.example\.com\/changed$/);
    expect(feed.entries.find((entry) => entry.field === "headers")!.what).toMatch(/header X-Api-Key (added|value changed)|value of header X-Api-Key changed/);
    // The value is nowhere in plain text; the encrypted row holds it.
    expect(await allText(trackerId)).not.toContain(secret);
    const headerChange = await prisma.setupChange.findFirstOrThrow({ where: { trackerId, field: "headers" } });
    expect(headerChange.secretCiphertext).toBeTruthy();
    expect(headerChange.secretCiphertext).not.toContain(secret);

    // As of before the edit, the group shows the old URL; as of now, the new one.
    const past = await groupAsOf(owner, trackerId, group.groupId!, before);
    const now = await groupAsOf(owner, trackerId, group.groupId!, new Date());
    const urlOf = (result: typeof past) => (result.kind === "ok" ? result.group.webhooks!.find((hook) => hook.id === hookId)?.url : null);
    expect(urlOf(past)).not.toBe("https://hooks.example.com/changed");
    expect(urlOf(now)).toBe("https://hooks.example.com/changed");
    expect(await groupAsOf(owner, trackerId, group.groupId!, new Date(Date.now() - 86_400_000))).toMatchObject({ kind: "before-history" });
  });

  it("pauses, and says why, when the runner's credentials are gone", async () => {
    const { owner, trackerId } = await trackedTeam();
    await prisma.apiCredential.delete({ where: { userId: owner.userId } });
    const outcome = await syncTracker(trackerId, { trigger: "manual", force: true });
    expect(outcome).toMatchObject({ status: "paused", message: expect.stringContaining("removed their API credentials") });
    expect(await prisma.changeTracker.findUniqueOrThrow({ where: { id: trackerId } })).toMatchObject({
      status: "paused",
      pausedReason: expect.stringContaining(owner.email),
    });
    expect(await syncTracker(trackerId, { trigger: "manual", force: true })).toEqual({ status: "busy" });
  });

  it("pauses, and says why, when the runner's credentials no longer decrypt (a key rotation dropped their key): not as if they were removed", async () => {
    const { owner, trackerId } = await trackedTeam();
    // What a rotation that took the key out of CREDENTIAL_ENCRYPTION_KEYS leaves: ciphertexts naming a key the ring no longer has.
    const row = await prisma.apiCredential.findUniqueOrThrow({ where: { userId: owner.userId } });
    const underRetiredKey = (ciphertext: string) => ciphertext.replace(/^v1:[^:]+:/, "v1:retired:");
    await prisma.apiCredential.update({
      where: { id: row.id },
      data: { keyCiphertext: underRetiredKey(row.keyCiphertext), secretCiphertext: underRetiredKey(row.secretCiphertext) },
    });
    const outcome = await syncTracker(trackerId, { trigger: "manual", force: true });
    expect(outcome).toMatchObject({ status: "paused", message: expect.stringContaining("can no longer be read") });
    expect(outcome).not.toMatchObject({ message: expect.stringContaining("removed") });
    expect(await prisma.changeTracker.findUniqueOrThrow({ where: { id: trackerId } })).toMatchObject({
      status: "paused",
      pausedReason: expect.stringContaining(owner.email),
    });
  });

  it("pauses, and says why, when the EMS rejects the runner's credentials", async () => {
    const { trackerId } = await trackedTeam();
    // Every call refused with 401, the token's renewal included: the credentials are rejected.
    portal.sandbox.injectFaults({ count: 6, status: 401, paths: "all" });
    try {
      const outcome = await syncTracker(trackerId, { trigger: "manual", force: true });
      expect(outcome).toMatchObject({ status: "paused", message: expect.stringContaining("The EMS API rejected the credentials") });
      expect(await prisma.changeTracker.findUniqueOrThrow({ where: { id: trackerId } })).toMatchObject({
        status: "paused",
        pausedReason: expect.stringContaining("rejected"),
      });
    } finally {
      portal.sandbox.clearFaults();
    }
  });

  it("keeps to its share of the rate limit: syncs of the credential (any team) that spent it already make this one wait, and say until when", async () => {
    const { trackerId } = await trackedTeam();
    const other = await createTeam();
    const { fingerprint } = await prisma.apiCredential.findFirstOrThrow({
      where: { user: { membership: { teamId: (await prisma.changeTracker.findUniqueOrThrow({ where: { id: trackerId } })).teamId } } },
    });
    // Another team's syncs with the same key spent 195 of the 200 credits (10 % of 2,000) this minute.
    await prisma.emsBudgetUsage.create({
      data: { teamId: other.teamId, fingerprint, kind: "sync", minute: new Date(Math.floor(Date.now() / 60_000) * 60_000), calls: 20, credits: 195 },
    });
    const outcome = await syncTracker(trackerId, { trigger: "manual", force: true });
    expect(outcome).toMatchObject({ status: "paced", message: expect.stringContaining("spent 195 of their 200-credit share (10% of 2000)") });
    const tracker = await prisma.changeTracker.findUniqueOrThrow({ where: { id: trackerId } });
    expect(tracker.nextRunAt.getTime()).toBeGreaterThan(Date.now() + 9 * 60_000);
    expect(await prisma.setupSync.findFirstOrThrow({ where: { trackerId } })).toMatchObject({ status: "paced", calls: 0 });
  });
});

// Issue 24, finding 8: who made a change (`updated_by`) and names were shown as the EMS sent them,
// so `\u202Enimda` read as "admin" on the Changes feed and a group's page.
describe("change history shows no bidi controls or invisible characters", () => {
  const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/;

  it("from the EMS (cleaned where answers are parsed), and from rows stored before that", async () => {
    const { owner, trackerId } = await trackedTeam();
    await syncTracker(trackerId, { trigger: "manual", force: true });
    // The account is shared by this file's tests: a webhook no other test edits, switched either way.
    const hook = await prisma.trackedRecord.findFirstOrThrow({ where: { trackerId, kind: "webhook" }, orderBy: { recordId: "desc" } });
    const enabled = (hook.state as { enabled?: boolean }).enabled === true;
    portal.sandbox.applyEdits(DEMO_CREDENTIALS.consumerKey, [
      { kind: "set-enabled", webhookId: hook.recordId, enabled: !enabled, by: "\u202Enimda" },
      { kind: "rename-group", groupId: hook.groupId!, name: "Pay\u202Eroll\u200B", by: "\u2066jane\u2069" },
    ]);
    expect(await syncTracker(trackerId, { trigger: "manual", force: true })).toMatchObject({ status: "ok" });
    const fresh = await listChanges(owner, parseFeedParams({ group: String(hook.groupId) }));
    expect(fresh.entries.find((entry) => entry.field === "enabled")?.changedBy).toBe("nimda");
    expect(fresh.entries.find((entry) => entry.field === "name")?.after).toBe("Payroll");
    expect(JSON.stringify(await prisma.setupChange.findMany({ where: { trackerId } }))).not.toMatch(INVISIBLE);

    // Rows written before the cleaning existed hold the text as it came: shown cleaned.
    await prisma.setupChange.updateMany({
      where: { trackerId },
      data: { changedBy: "\u202Enimda", recordName: "Hook\u200B", groupName: "Pay\u202Eroll", before: "\u2067old", after: "\u202Enew" },
    });
    const stored = await listChanges(owner, parseFeedParams({ group: String(hook.groupId) }));
    expect(stored.entries.length).toBeGreaterThanOrEqual(2);
    for (const entry of stored.entries) {
      expect(entry).toMatchObject({ changedBy: "nimda", recordName: "Hook", groupName: "Payroll", before: "old", after: "new" });
      expect(`${entry.subject} ${entry.what} ${entry.sentence}`).not.toMatch(INVISIBLE);
    }
    const asOf = await groupAsOf(owner, trackerId, hook.groupId!, new Date());
    expect(asOf.kind).toBe("ok");
    expect(JSON.stringify(asOf)).not.toMatch(INVISIBLE);
  });
});
