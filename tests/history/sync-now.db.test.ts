// syncTrackerNow and syncNowMessage (lib/history/sync-now.ts), the data function behind "Sync now":
// who may run it (owners and admins of the tracker's team), a paused tracker, the audit record, and
// what the person is told of each outcome. Against the sandbox's demo account over real HTTP.
import { describe, expect, it } from "vitest";
import { saveCredential } from "@/lib/credentials/store";
import { prisma } from "@/lib/db/prisma";
import { syncNowMessage, syncTrackerNow } from "@/lib/history/sync-now";
import { pauseTracker, startTracking } from "@/lib/history/trackers";
import { DEMO_CREDENTIALS } from "@/lib/sandbox/demo-credentials";
import { addMember, createTeam } from "@/tests/teams/fixtures";
import { historyTestPortal } from "./support";

const portal = historyTestPortal();

async function trackedTeam() {
  const owner = await createTeam();
  await saveCredential(owner, { baseUrl: portal().baseUrl, ...DEMO_CREDENTIALS });
  const { id } = await startTracking(owner, { intervalMinutes: 15 });
  return { owner, trackerId: id };
}

describe("syncTrackerNow", () => {
  it("syncs the team's tracker for an owner, records it with the outcome, and says what it found", async () => {
    const { owner, trackerId } = await trackedTeam();
    const outcome = await syncTrackerNow(owner, trackerId, { ip: "203.0.113.7" });
    expect(outcome.status).toBe("ok");
    expect(syncNowMessage(outcome)).toMatch(/^Synced: /);
    const record = await prisma.auditLog.findFirstOrThrow({ where: { teamId: owner.teamId, action: "history.synced_now" } });
    expect(record).toMatchObject({ actorId: owner.userId, target: `tracker:${trackerId}`, ip: "203.0.113.7", metadata: { status: "ok" } });
  });

  it("refuses a member, and another team's owner (as if the tracker did not exist), and records nothing", async () => {
    const { owner, trackerId } = await trackedTeam();
    const member = await addMember(owner, "MEMBER");
    const stranger = await createTeam();
    await expect(syncTrackerNow(member, trackerId)).rejects.toMatchObject({ code: "forbidden" });
    await expect(syncTrackerNow(stranger, trackerId)).rejects.toMatchObject({ code: "not_found" });
    expect(await prisma.auditLog.count({ where: { action: "history.synced_now", teamId: { in: [owner.teamId, stranger.teamId] } } })).toBe(0);
  });

  it("refuses a paused tracker with its reason, before any sync", async () => {
    const { owner, trackerId } = await trackedTeam();
    await pauseTracker(owner, { trackerId });
    const { pausedReason } = await prisma.changeTracker.findUniqueOrThrow({ where: { id: trackerId } });
    await expect(syncTrackerNow(owner, trackerId)).rejects.toMatchObject({ code: "paused", message: `Tracking is paused: ${pausedReason}` });
    expect(await prisma.setupSync.count({ where: { trackerId } })).toBe(0);
  });
});

describe("syncNowMessage", () => {
  it("words each outcome; a sync already running or a failure is a SafeError the form shows", () => {
    const base = { syncId: "s", calls: 1, credits: 1, bytes: 1, baseline: false, newlyFailing: 0 };
    expect(syncNowMessage({ status: "ok", ...base, changes: 0 })).toBe("Synced: nothing changed since the last sync.");
    expect(syncNowMessage({ status: "ok", ...base, changes: 1 })).toBe("Synced: 1 change found.");
    expect(syncNowMessage({ status: "ok", ...base, changes: 3 })).toBe("Synced: 3 changes found.");
    expect(syncNowMessage({ status: "paced", syncId: "s", message: "Paced: goes on at 10:00.", resumeAt: new Date() })).toBe("Paced: goes on at 10:00.");
    expect(() => syncNowMessage({ status: "busy" })).toThrow(expect.objectContaining({ safe: true, code: "busy" }));
    expect(() => syncNowMessage({ status: "failed", syncId: "s", message: "The EMS API refused." })).toThrow(
      expect.objectContaining({ safe: true, code: "failed", message: "The EMS API refused." }),
    );
  });
});
