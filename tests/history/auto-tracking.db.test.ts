import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { saveCredential, testCredential } from "@/lib/credentials/store";
import { defaultSyncInterval } from "@/lib/history/auto-tracking";
import { listChanges } from "@/lib/history/feed";
import { parseFeedParams } from "@/lib/history/feed-params";
import { syncTracker } from "@/lib/history/sync";
import { stopTracking } from "@/lib/history/trackers";
import { DEMO_CREDENTIALS, OTHER_CREDENTIALS, type StartedSandbox } from "@/lib/sandbox/testing";
import { startAllowedSandbox } from "@/tests/ems/support/sandbox";
import { warmPool } from "@/tests/setup/db";
import { addMember, createTeam } from "../teams/fixtures";

// Issue 37 §1: a record from the first minute. Saving a working credential starts tracking its
// account for the team, on a schedule its size allows, and Changes says since when it knows.

let sandbox: StartedSandbox;
beforeAll(async () => {
  sandbox = await startAllowedSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});

const demo = () => ({ baseUrl: sandbox.baseUrl, consumerKey: DEMO_CREDENTIALS.consumerKey, consumerSecret: DEMO_CREDENTIALS.consumerSecret });
const trackersOf = (teamId: string) => prisma.changeTracker.findMany({ where: { teamId } });

describe("change history from the first credential", () => {
  it("a checked save starts tracking the account, run by the person who saved it; Changes says since when, then that nothing changed yet", async () => {
    const owner = await createTeam();
    await saveCredential(owner, demo(), {}, { check: true });
    const [tracker, ...more] = await trackersOf(owner.teamId);
    expect(more).toEqual([]);
    expect(tracker).toMatchObject({ runnerId: owner.userId, createdByEmail: owner.email, intervalMinutes: 15, status: "active" });
    const audit = await prisma.auditLog.findFirstOrThrow({ where: { teamId: owner.teamId, action: "history.tracking_started" } });
    expect(audit.metadata).toMatchObject({ automatic: true, intervalMinutes: 15 });

    const before = await listChanges(owner, parseFeedParams(new URLSearchParams()));
    expect(before).toMatchObject({ tracking: true, total: 0 });
    expect(before.readable[0]).toMatchObject({ id: tracker!.id, lastSyncAt: null });
    expect(before.readable[0]!.trackingSince.getTime()).toBe(tracker!.createdAt.getTime());
    // Due at once: the schedule's next run takes the first snapshot.
    expect((await syncTracker(tracker!.id, { trigger: "schedule" })).status).toBe("ok");
    const after = await listChanges(owner, parseFeedParams(new URLSearchParams()));
    expect(after.readable[0]!.lastSyncAt).not.toBeNull();
  });

  it("a teammate saving the same account, or the connection tested again, adds no second tracker; an admin's other account gets its own, a member's none", async () => {
    const owner = await createTeam();
    await saveCredential(owner, demo(), {}, { check: true });
    const member = await addMember(owner, "MEMBER");
    await saveCredential(member, demo(), {}, { check: true });
    await testCredential(owner);
    expect(await trackersOf(owner.teamId)).toHaveLength(1);
    // A member may not turn tracking on, so their credential does not either.
    const other = { ...demo(), consumerKey: OTHER_CREDENTIALS.consumerKey, consumerSecret: OTHER_CREDENTIALS.consumerSecret };
    await saveCredential(member, other, {}, { check: true });
    expect(await trackersOf(owner.teamId)).toHaveLength(1);
    const admin = await addMember(owner, "ADMIN");
    await saveCredential(admin, other, {}, { check: true });
    expect((await trackersOf(owner.teamId)).map((tracker) => tracker.runnerId).sort()).toEqual([owner.userId, admin.userId].sort());
  });

  it("two admins saving at once start one tracker, audited once (the unique index on team and account decides)", async () => {
    await warmPool();
    const owner = await createTeam();
    const admins = await Promise.all([addMember(owner, "ADMIN"), addMember(owner, "ADMIN"), addMember(owner, "ADMIN")]);
    await Promise.all(admins.map((admin) => saveCredential(admin, demo(), {}, { check: true })));
    expect(await trackersOf(owner.teamId)).toHaveLength(1);
    expect(await prisma.auditLog.count({ where: { teamId: owner.teamId, action: "history.tracking_started" } })).toBe(1);
  });

  it("starts nothing for a credential the EMS refused, nor for one saved without a check until a test passes", async () => {
    const owner = await createTeam();
    await expect(saveCredential(owner, { ...demo(), consumerSecret: "wrong secret" }, {}, { check: true })).rejects.toThrow();
    expect(await trackersOf(owner.teamId)).toHaveLength(0);
    await saveCredential(owner, demo());
    expect(await trackersOf(owner.teamId)).toHaveLength(0);
    expect((await testCredential(owner)).ok).toBe(true);
    expect(await trackersOf(owner.teamId)).toHaveLength(1);
  });

  it("once an owner stopped tracking, saving a credential does not start it again", async () => {
    const owner = await createTeam();
    await saveCredential(owner, demo(), {}, { check: true });
    const [tracker] = await trackersOf(owner.teamId);
    await stopTracking(owner, { trackerId: tracker!.id });
    expect((await prisma.team.findUniqueOrThrow({ where: { id: owner.teamId } })).autoTrackHistory).toBe(false);
    await saveCredential(owner, demo(), {}, { check: true });
    expect(await testCredential(owner)).toMatchObject({ ok: true });
    expect(await trackersOf(owner.teamId)).toHaveLength(0);
  });
});

describe("the schedule a new account is tracked on", () => {
  it("is every 15 minutes for a small account, and as often as half of history's share of the rate limit allows for a large one", () => {
    expect(defaultSyncInterval(null)).toBe(15);
    expect(defaultSyncInterval(150, 10)).toBe(15);
    // 5,000 groups: 25 pages of groups and as many of events, 500 credits a sync; 600 an hour fit.
    expect(defaultSyncInterval(5_000, 10)).toBe(60);
    expect(defaultSyncInterval(5_000, 40)).toBe(15);
    expect(defaultSyncInterval(1_000_000, 10)).toBe(1440);
  });
});
