// The first-run checklist (lib/onboarding/checklist.ts): each step ticked from real rows, the
// "seen your groups" mark written by the same single statement only with working credentials,
// and dismissal acting on the signed-in person's own membership only.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
vi.mock("next/headers", () => import("../actions/support/next-headers"));
vi.mock("next/cache", () => import("../actions/support/next-cache"));

import { revalidatePath } from "next/cache";
import { dismissChecklistAction } from "@/lib/actions/onboarding/dismiss-checklist";
import { getActor } from "@/lib/auth/session";
import type { Actor } from "@/lib/access/actor";
import { saveCredential } from "@/lib/credentials/store";
import { prisma } from "@/lib/db/prisma";
import { checklistOf, dismissChecklist, getChecklist, type Checklist } from "@/lib/onboarding/checklist";
import { createInvitation } from "@/lib/teams/invitations";
import { createView } from "@/lib/views/views";
import { call, expectSignInRedirect } from "../actions/support/call";
import { signInAs, signedOut } from "../actions/support/request";
import { installQueryCounter, type QueryCounter } from "../db/query-counter";
import { addMember, createTeam } from "../teams/fixtures";

const done = (checklist: Checklist | null) => Object.fromEntries((checklist?.steps ?? []).map((step) => [step.key, step.done]));
const NOTHING_DONE = { connect: false, groups: false, view: false, invite: false };

/** Saved credentials whose last check succeeded (or, with `failedAfter`, failed after succeeding). */
async function connect(actor: Actor, options: { failedAfter?: boolean } = {}): Promise<void> {
  await saveCredential(actor, { baseUrl: "https://ems.example.com", consumerKey: `key-${actor.userId.slice(-6)}`, consumerSecret: "a secret of the test" });
  const verified = new Date(Date.now() - 60_000);
  await prisma.apiCredential.update({
    where: { userId: actor.userId },
    data: { lastVerifiedAt: verified, ...(options.failedAfter ? { lastErrorAt: new Date(), lastError: "Rejected.", lastErrorCode: "ems_credentials_rejected" } : {}) },
  });
}

let counter: QueryCounter;
beforeAll(async () => {
  counter = await installQueryCounter();
});
afterAll(async () => {
  await counter?.uninstall();
});

describe("checklistOf", () => {
  it("counts the steps done, says when all are, and is nothing once dismissed", () => {
    const facts = { dismissed: false, connected: true, groupsSeen: true, hasOwnView: false, invitedSomeone: true, canInvite: true };
    expect(checklistOf(facts)).toMatchObject({ doneCount: 3, allDone: false });
    expect(checklistOf({ ...facts, hasOwnView: true })).toMatchObject({ doneCount: 4, allDone: true });
    expect(checklistOf({ ...facts, dismissed: true })).toBeNull();
    expect(checklistOf(facts)?.steps.map((step) => [step.key, step.href])).toEqual([
      ["connect", "/settings/credentials"],
      ["groups", "/webhook-groups"],
      ["view", "/webhook-groups"],
      ["invite", "/team"],
    ]);
  });
});

describe("getChecklist", () => {
  it("starts with nothing done, and opening the listing without credentials marks nothing", async () => {
    const owner = await createTeam();
    expect(done(await getChecklist(owner, { markGroupsSeen: true }))).toEqual(NOTHING_DONE);
    expect((await prisma.membership.findUniqueOrThrow({ where: { userId: owner.userId } })).webhookGroupsSeenAt).toBeNull();
  });

  it("ticks the connection only for credentials whose last check succeeded", async () => {
    const owner = await createTeam();
    await saveCredential(owner, { baseUrl: "https://ems.example.com", consumerKey: "never-checked", consumerSecret: "a secret of the test" });
    expect(done(await getChecklist(owner)).connect).toBe(false);
    await connect(owner);
    expect(done(await getChecklist(owner)).connect).toBe(true);
    const failing = await createTeam();
    await connect(failing, { failedAfter: true });
    expect(done(await getChecklist(failing, { markGroupsSeen: true }))).toEqual(NOTHING_DONE);
  });

  it("records the first look at the groups with working credentials, in the same one statement", async () => {
    const owner = await createTeam();
    await connect(owner);
    const read = await counter.record(() => getChecklist(owner));
    expect(read.statements).toHaveLength(1);
    expect(done(read.result).groups).toBe(false);
    const marked = await counter.record(() => getChecklist(owner, { markGroupsSeen: true }));
    expect(marked.statements).toHaveLength(1);
    expect(done(marked.result).groups).toBe(true);
    const first = (await prisma.membership.findUniqueOrThrow({ where: { userId: owner.userId } })).webhookGroupsSeenAt;
    expect(first).toBeInstanceOf(Date);
    // Later visits keep the first moment.
    await getChecklist(owner, { markGroupsSeen: true });
    expect((await prisma.membership.findUniqueOrThrow({ where: { userId: owner.userId } })).webhookGroupsSeenAt).toEqual(first);
    expect(done(await getChecklist(owner)).groups).toBe(true);
  });

  it("ticks a saved view of the person's own, not a teammate's", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    await createView(owner, { page: "webhook-groups", name: "Shared by the owner", query: "sort=-id", scope: "TEAM" });
    expect(done(await getChecklist(member)).view).toBe(false);
    expect(done(await getChecklist(owner)).view).toBe(true);
    await createView(member, { page: "events", name: "Mine", query: "per-page=50", scope: "PERSONAL" });
    expect(done(await getChecklist(member)).view).toBe(true);
  });

  it("ticks the invitation step for the person's own open or used invitation, not a withdrawn or expired one", async () => {
    const owner = await createTeam();
    const invitation = await createInvitation(owner, { role: "MEMBER" });
    expect(done(await getChecklist(owner)).invite).toBe(true);
    await prisma.invitation.updateMany({ where: { teamId: owner.teamId }, data: { revokedAt: new Date() } });
    expect(done(await getChecklist(owner)).invite).toBe(false);
    await createInvitation(owner, { role: "MEMBER" });
    await prisma.invitation.updateMany({ where: { teamId: owner.teamId, revokedAt: null }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(done(await getChecklist(owner)).invite).toBe(false);
    expect(invitation).toBeTruthy();
    // A teammate who came in some other way is not this person's step done.
    await addMember(owner, "MEMBER");
    expect(done(await getChecklist(owner)).invite).toBe(false);
    await createInvitation(owner, { role: "MEMBER" });
    await prisma.invitation.updateMany({ where: { teamId: owner.teamId, revokedAt: null, usedAt: null, expiresAt: { gt: new Date() } }, data: { usedAt: new Date() } });
    expect(done(await getChecklist(owner)).invite).toBe(true);
  });

  it("is each person's own: a teammate who joins starts with nothing done while the owner's steps are done", async () => {
    const owner = await createTeam();
    await connect(owner);
    await getChecklist(owner, { markGroupsSeen: true });
    await createView(owner, { page: "webhook-groups", name: "Owner's view", scope: "TEAM", query: "sort=-id" });
    await createInvitation(owner, { role: "MEMBER" });
    expect(done(await getChecklist(owner))).toEqual({ connect: true, groups: true, view: true, invite: true });

    const member = await addMember(owner, "MEMBER");
    const members = await getChecklist(member);
    // No invitation step for a role that cannot invite; nothing of the owner's counts for them.
    expect(done(members)).toEqual({ connect: false, groups: false, view: false });
    expect(members).toMatchObject({ doneCount: 0, allDone: false });
    const admin = await addMember(owner, "ADMIN");
    expect(done(await getChecklist(admin))).toEqual(NOTHING_DONE);
  });

  it("is nothing for a membership of another team than the actor says (a stale actor)", async () => {
    const owner = await createTeam();
    const other = await createTeam();
    expect(await getChecklist({ userId: owner.userId, teamId: other.teamId }, { markGroupsSeen: true })).toBeNull();
  });
});

describe("dismissing", () => {
  beforeEach(() => {
    signedOut({ path: "/webhook-groups" });
    vi.mocked(revalidatePath).mockClear();
  });

  it("hides the checklist for the person who dismissed it, and for nobody else", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const outsider = await createTeam();
    await signInAs(member);
    expect(await call(dismissChecklistAction, { userId: owner.userId, teamId: outsider.teamId })).toEqual({ status: "success", message: "Checklist dismissed." });
    expect(revalidatePath).toHaveBeenCalledWith("/webhook-groups");
    expect(await getChecklist(member)).toBeNull();
    // The session's own statement says so, and the landing page then reads nothing more.
    expect((await getActor())?.checklistDismissed).toBe(true);
    // Fields naming someone else are ignored: the action acts on the caller's own membership only.
    expect(await getChecklist(owner)).not.toBeNull();
    expect(await getChecklist(outsider)).not.toBeNull();
  });

  it("sends a signed-out caller to sign-in and dismisses nothing", async () => {
    const owner = await createTeam();
    await expectSignInRedirect(call(dismissChecklistAction), "/webhook-groups");
    expect(await getChecklist(owner)).not.toBeNull();
  });

  it("touches only the actor's membership of the actor's team, and keeps the first moment", async () => {
    const owner = await createTeam();
    const other = await createTeam();
    await dismissChecklist({ userId: owner.userId, teamId: other.teamId });
    expect(await getChecklist(owner)).not.toBeNull();
    await dismissChecklist(owner);
    const first = (await prisma.membership.findUniqueOrThrow({ where: { userId: owner.userId } })).checklistDismissedAt;
    await dismissChecklist(owner);
    expect((await prisma.membership.findUniqueOrThrow({ where: { userId: owner.userId } })).checklistDismissedAt).toEqual(first);
    // Nor is the groups step recorded for a dismissed checklist.
    await connect(owner);
    expect(await getChecklist(owner, { markGroupsSeen: true })).toBeNull();
    expect((await prisma.membership.findUniqueOrThrow({ where: { userId: owner.userId } })).webhookGroupsSeenAt).toBeNull();
  });
});
