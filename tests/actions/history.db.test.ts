// The change-history actions (lib/actions/history/*) called as a crafted direct request would:
// signed out, as a member, with another team's tracker, with hostile ids and schedules, and stop
// without a recent password. Against the sandbox's demo account over real HTTP.
import { beforeEach, describe, expect, it, vi } from "vitest";
vi.mock("next/headers", () => import("./support/next-headers"));
vi.mock("next/cache", () => import("./support/next-cache"));

import { REAUTH_REQUIRED_MESSAGE } from "@/lib/access/reauth-shared";
import { pauseTrackerAction } from "@/lib/actions/history/pause-tracker";
import { setTrackerIntervalAction } from "@/lib/actions/history/set-tracker-interval";
import { startTrackingAction } from "@/lib/actions/history/start-tracking";
import { stopTrackingAction } from "@/lib/actions/history/stop-tracking";
import { syncNowAction } from "@/lib/actions/history/sync-now";
import { takeOverTrackerAction } from "@/lib/actions/history/take-over-tracker";
import { saveCredential } from "@/lib/credentials/store";
import { prisma } from "@/lib/db/prisma";
import { DEMO_CREDENTIALS, OTHER_CREDENTIALS } from "@/lib/sandbox/demo-credentials";
import type { Actor } from "@/lib/access/actor";
import { addMember, createTeam } from "@/tests/teams/fixtures";
import { call, expectSignInRedirect } from "./support/call";
import { signInAs, signedOut } from "./support/request";
import { historyTestPortal } from "@/tests/history/support";

const portal = historyTestPortal();
beforeEach(() => signedOut({ path: "/settings" }));

async function ownerWithTracker(): Promise<{ owner: Actor; trackerId: string }> {
  const owner = await createTeam();
  await saveCredential(owner, { baseUrl: portal().baseUrl, ...DEMO_CREDENTIALS });
  await signInAs(owner);
  expect(await call(startTrackingAction, { intervalMinutes: "15" })).toMatchObject({ status: "success" });
  const tracker = await prisma.changeTracker.findFirstOrThrow({ where: { teamId: owner.teamId } });
  return { owner, trackerId: tracker.id };
}

const trackerOf = (id: string) => prisma.changeTracker.findUnique({ where: { id } });

describe("change-history actions", () => {
  it("signed out: sent to sign-in, nothing started", async () => {
    await expectSignInRedirect(call(startTrackingAction, { intervalMinutes: "15" }), "/settings");
    await expectSignInRedirect(call(syncNowAction, { trackerId: "c".repeat(25) }), "/settings");
  });

  it("an owner turns tracking on: the first snapshot is taken at once; a second time is refused; a schedule outside the choices is refused", async () => {
    const { owner, trackerId } = await ownerWithTracker();
    expect(await prisma.setupSync.count({ where: { trackerId, status: "ok" } })).toBe(1);
    expect(await call(startTrackingAction, { intervalMinutes: "15" })).toEqual({ status: "error", message: "This account is already tracked for your team." });
    for (const intervalMinutes of ["7", "-15", "1e9", "15; DROP TABLE", ""]) {
      expect(await call(setTrackerIntervalAction, { trackerId, intervalMinutes })).toMatchObject({
        status: "error",
        fieldErrors: { intervalMinutes: "Choose how often to sync." },
      });
    }
    expect((await trackerOf(trackerId))!.intervalMinutes).toBe(15);
    expect(await prisma.auditLog.count({ where: { teamId: owner.teamId, action: "history.tracking_started" } })).toBe(1);
  });

  it("a member may do none of it; a member's own credential is not enough", async () => {
    const { owner, trackerId } = await ownerWithTracker();
    const member = await addMember(owner, "MEMBER");
    await saveCredential(member, { baseUrl: portal().baseUrl, ...DEMO_CREDENTIALS });
    await signInAs(member);
    const refused = { status: "error", message: "Only owners and admins can manage the team." };
    expect(await call(syncNowAction, { trackerId })).toEqual(refused);
    expect(await call(pauseTrackerAction, { trackerId })).toEqual(refused);
    expect(await call(setTrackerIntervalAction, { trackerId, intervalMinutes: "5" })).toEqual(refused);
    expect(await call(takeOverTrackerAction, { trackerId })).toEqual(refused);
    expect(await trackerOf(trackerId)).toMatchObject({ status: "active", runnerId: owner.userId, intervalMinutes: 15 });
  });

  it("another team's tracker, or a crafted id, is not found: nothing of it is synced, paused, changed or deleted", async () => {
    const { trackerId } = await ownerWithTracker();
    const stranger = await createTeam();
    await saveCredential(stranger, { baseUrl: portal().baseUrl, ...DEMO_CREDENTIALS });
    await signInAs(stranger);
    const missing = { status: "error", message: "That tracker no longer exists." };
    for (const action of [syncNowAction, pauseTrackerAction, takeOverTrackerAction, stopTrackingAction]) {
      expect(await call(action, { trackerId })).toEqual(missing);
    }
    expect(await call(setTrackerIntervalAction, { trackerId, intervalMinutes: "5" })).toEqual(missing);
    for (const crafted of ["../../etc", "' OR 1=1 --", "x".repeat(5000), ""]) {
      expect(await call(syncNowAction, { trackerId: crafted })).toMatchObject({ status: "error" });
    }
    expect(await trackerOf(trackerId)).toMatchObject({ status: "active", intervalMinutes: 15 });
    expect(await prisma.setupSync.count({ where: { trackerId } })).toBe(1);
  });

  it("take over needs credentials of the same account; pause stops Sync now until resumed", async () => {
    const { owner, trackerId } = await ownerWithTracker();
    const admin = await addMember(owner, "ADMIN");
    await saveCredential(admin, { baseUrl: portal().baseUrl, ...OTHER_CREDENTIALS });
    await signInAs(admin);
    expect(await call(takeOverTrackerAction, { trackerId })).toEqual({
      status: "error",
      message: "Your own credentials read another EMS account: save credentials of this account to run its tracker.",
    });
    expect(await call(pauseTrackerAction, { trackerId })).toMatchObject({ status: "success" });
    expect(await call(syncNowAction, { trackerId })).toEqual({ status: "error", message: `Tracking is paused: Paused by ${admin.email}.` });
    await saveCredential(admin, { baseUrl: portal().baseUrl, ...DEMO_CREDENTIALS });
    expect(await call(takeOverTrackerAction, { trackerId })).toMatchObject({ status: "success" });
    expect(await trackerOf(trackerId)).toMatchObject({ status: "active", runnerId: admin.userId, pausedReason: null });
    expect(await call(syncNowAction, { trackerId })).toEqual({ status: "success", message: "Synced: nothing changed since the last sync." });
  });

  it("stopping deletes the history, and needs a recent password", async () => {
    const { owner, trackerId } = await ownerWithTracker();
    const { sessionId } = await signInAs(owner);
    await prisma.userSession.update({ where: { id: sessionId }, data: { reauthenticatedAt: new Date(Date.now() - 11 * 60 * 1000) } });
    expect(await call(stopTrackingAction, { trackerId })).toEqual({ status: "error", message: REAUTH_REQUIRED_MESSAGE, reauthRequired: "any" });
    expect(await trackerOf(trackerId)).not.toBeNull();
    await signInAs(owner);
    expect(await call(stopTrackingAction, { trackerId })).toMatchObject({ status: "success" });
    expect(await trackerOf(trackerId)).toBeNull();
    expect(await prisma.trackedRecord.count({ where: { trackerId } })).toBe(0);
  });
});
