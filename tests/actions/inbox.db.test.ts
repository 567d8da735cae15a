// The inbox actions (lib/actions/inbox/*) and the undo applied without review
// (lib/actions/plans/apply-undo.ts), called as a crafted direct request would call them: signed out,
// another person's or another team's items and plans (not found), bad input, the wrong role, a stale
// password, and the success that changes only the caller's own rows.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
vi.mock("next/headers", () => import("./support/next-headers"));
vi.mock("next/cache", () => import("./support/next-cache"));
// The framework's `after` (work after the answer): run at once, so the test sees what it did.
const afterAnswer: Promise<unknown>[] = [];
vi.mock("next/server", async (original) => ({
  ...(await original<typeof import("next/server")>()),
  after: (work: () => Promise<unknown>) => void afterAnswer.push(work()),
}));

import { markAllInboxReadAction } from "@/lib/actions/inbox/mark-all-read";
import { markInboxItemReadAction } from "@/lib/actions/inbox/mark-read";
import { saveInboxPreferencesAction } from "@/lib/actions/inbox/save-preferences";
import { applyUndoAction } from "@/lib/actions/plans/apply-undo";
import type { Actor } from "@/lib/access/actor";
import { REAUTH_PASSWORD_MESSAGE } from "@/lib/access/reauth-shared";
import { prisma } from "@/lib/db/prisma";
import { GENERIC_ERROR_MESSAGE } from "@/lib/errors";
import { inboxPreferences } from "@/lib/inbox/preferences";
import { startApply } from "@/lib/plans/apply";
import { draftPlan, draftUndoPlan } from "@/lib/plans/draft";
import { approvePlan, submitPlan } from "@/lib/plans/review";
import { runPlan } from "@/lib/plans/run";
import { ensureEmsTestEnv } from "@/tests/ems/support/env";
import { addMember, createTeam, unique } from "@/tests/teams/fixtures";
import { planTeamPerTest } from "../plans/support/plan-team";
import { call, expectSignInRedirect } from "./support/call";
import { signedOutBeforeEach, signInAs } from "./support/request";

ensureEmsTestEnv();
signedOutBeforeEach("/inbox");
const team = planTeamPerTest();

afterEach(async () => {
  await Promise.allSettled(afterAnswer.splice(0));
});

const NOT_FOUND = { status: "error", message: "That item is not in your inbox." };

async function itemOf(person: Actor, read = false): Promise<string> {
  const row = await prisma.inboxItem.create({
    data: { userId: person.userId, teamId: person.teamId, kind: "plan_approved", planTitle: "Sürgős — 修正", dedupeKey: unique(), readAt: read ? new Date() : null },
  });
  return row.id;
}
const readAtOf = async (id: string) => (await prisma.inboxItem.findUniqueOrThrow({ where: { id }, select: { readAt: true } })).readAt;

describe("markInboxItemReadAction", () => {
  it("sends a signed-out caller to sign-in and marks nothing", async () => {
    const id = await itemOf(team.member);
    await expectSignInRedirect(call(markInboxItemReadAction, { itemId: id }), "/inbox");
    expect(await readAtOf(id)).toBeNull();
  });

  it("another person's item, in the team or another, is not found; nothing is marked", async () => {
    const teammates = await itemOf(team.admin);
    const stranger = await createTeam();
    const strangers = await itemOf(stranger);
    await signInAs(team.member);
    expect(await call(markInboxItemReadAction, { itemId: teammates })).toEqual(NOT_FOUND);
    expect(await call(markInboxItemReadAction, { itemId: strangers })).toEqual(NOT_FOUND);
    expect(await readAtOf(teammates)).toBeNull();
    expect(await readAtOf(strangers)).toBeNull();
  });

  it("an id that is no id, or none, is told plainly, never the generic error", async () => {
    await signInAs(team.member);
    for (const itemId of ["", "x".repeat(500), "../../etc", '\'; DROP TABLE "InboxItem"; --']) {
      const answer = await call(markInboxItemReadAction, { itemId });
      expect(answer.status).toBe("error");
      expect(JSON.stringify(answer)).toContain("That item is not in your inbox.");
      expect(JSON.stringify(answer)).not.toContain(GENERIC_ERROR_MESSAGE);
    }
    expect((await call(markInboxItemReadAction, {})).status).toBe("error");
  });

  it("marks the caller's own item read (again: no change, no error)", async () => {
    const id = await itemOf(team.member);
    const other = await itemOf(team.member);
    await signInAs(team.member);
    expect(await call(markInboxItemReadAction, { itemId: id })).toMatchObject({ status: "success" });
    const first = await readAtOf(id);
    expect(first).not.toBeNull();
    expect(await readAtOf(other)).toBeNull();
    expect(await call(markInboxItemReadAction, { itemId: id })).toMatchObject({ status: "success" });
    expect(await readAtOf(id)).toEqual(first);
  });
});

describe("markAllInboxReadAction", () => {
  it("sends a signed-out caller to sign-in", async () => {
    const id = await itemOf(team.member);
    await expectSignInRedirect(call(markAllInboxReadAction, {}), "/inbox");
    expect(await readAtOf(id)).toBeNull();
  });

  it("marks every unread item of the caller's own, and nobody else's", async () => {
    const mine = [await itemOf(team.member), await itemOf(team.member), await itemOf(team.member, true)];
    const theirs = await itemOf(team.admin);
    await signInAs(team.member);
    expect(await call(markAllInboxReadAction, { itemId: theirs })).toEqual({ status: "success", message: "Marked 2 items as read." });
    for (const id of mine) expect(await readAtOf(id)).not.toBeNull();
    expect(await readAtOf(theirs)).toBeNull();
    expect(await call(markAllInboxReadAction, {})).toEqual({ status: "success", message: "Nothing was unread." });
  });
});

describe("saveInboxPreferencesAction", () => {
  it("sends a signed-out caller to sign-in and saves nothing", async () => {
    await expectSignInRedirect(call(saveInboxPreferencesAction, { "email.plan_applied": "on" }), "/inbox");
    expect(await prisma.inboxPreference.count({ where: { teamId: team.owner.teamId } })).toBe(0);
  });

  it("a value that is not a tick is refused with the form's message; nothing is saved", async () => {
    await signInAs(team.member);
    const answer = await call(saveInboxPreferencesAction, { "email.plan_applied": "yes please" });
    expect(answer).toMatchObject({ status: "error", message: "Those choices could not be read; reload the page and try again." });
    expect(await prisma.inboxPreference.count({ where: { userId: team.member.userId } })).toBe(0);
  });

  it("saves the caller's own choices for every kind (unticked is off), audited, and nobody else's", async () => {
    await signInAs(team.member);
    expect(await call(saveInboxPreferencesAction, { "email.plan_applied": "on", "slack.plan_failed": "on", userId: team.admin.userId })).toMatchObject({
      status: "success",
    });
    const mine = await inboxPreferences(team.member);
    expect(mine.plan_applied).toEqual({ email: true, slack: false });
    expect(mine.plan_failed).toEqual({ email: false, slack: true });
    // A default that was on is now off: the form answers every kind.
    expect(mine.plan_to_review).toEqual({ email: false, slack: false });
    expect(await prisma.inboxPreference.count({ where: { userId: team.admin.userId } })).toBe(0);
    expect((await inboxPreferences(team.admin)).plan_to_review).toEqual({ email: true, slack: false });
    expect(await prisma.auditLog.count({ where: { teamId: team.member.teamId, action: "inbox.preferences_changed", actorId: team.member.userId } })).toBe(1);
  });
});

describe("applyUndoAction (an undo of a recent plan, without a second approval)", () => {
  let applied: string;
  let undo: string;

  beforeEach(async () => {
    const hook = (await team.client().listWebhooks({ perPage: 1, sort: [{ field: "id", direction: "asc" }] })).items[0];
    ({ planId: applied } = await draftPlan(team.member, { edits: [{ kind: "webhook.update", id: hook.id, values: { name: `Before undo ${unique()}` } }] }));
    await submitPlan(team.member, applied);
    await approvePlan(team.owner, applied);
    await startApply(team.owner, applied);
    await runPlan(applied);
    ({ planId: undo } = await draftUndoPlan(team.member, applied));
  });

  const statusOf = async (planId: string) => (await prisma.changePlan.findUniqueOrThrow({ where: { id: planId }, select: { status: true } })).status;

  it("sends a signed-out caller to sign-in; nothing starts", async () => {
    await expectSignInRedirect(call(applyUndoAction, { planId: undo }), "/inbox");
    expect(await statusOf(undo)).toBe("draft");
  });

  it("refuses a member (its author too), another team's owner (not found), and an id that is none", async () => {
    await signInAs(team.member);
    expect(await call(applyUndoAction, { planId: undo })).toEqual({ status: "error", message: "Only owners and admins can apply an undo without review." });
    const stranger = await createTeam();
    await signInAs(stranger);
    expect(await call(applyUndoAction, { planId: undo })).toEqual({ status: "error", message: "That plan no longer exists, or it is not in your team." });
    await signInAs(team.admin);
    expect(await call(applyUndoAction, { planId: "not-a-plan" })).toMatchObject({ status: "error", fieldErrors: { planId: "That plan does not exist." } });
    expect(await statusOf(undo)).toBe("draft");
  });

  it("asks an admin whose password is not recent for it first; nothing starts", async () => {
    const { sessionId } = await signInAs(team.admin);
    const then = new Date(Date.now() - 11 * 60 * 1000);
    await prisma.userSession.update({ where: { id: sessionId }, data: { reauthenticatedAt: then, passwordVerifiedAt: then } });
    expect(await call(applyUndoAction, { planId: undo })).toEqual({ status: "error", message: REAUTH_PASSWORD_MESSAGE, reauthRequired: "password" });
    expect(await statusOf(undo)).toBe("draft");
  });

  it("refuses the undo of a plan applied more than 24 hours ago: it goes through review", async () => {
    const old = new Date(Date.now() - 25 * 60 * 60 * 1000);
    await prisma.$executeRaw`UPDATE "ChangePlan" SET "appliedAt" = ${old}, "updatedAt" = ${old} WHERE "id" = ${applied}`;
    await signInAs(team.admin);
    const answer = await call(applyUndoAction, { planId: undo });
    expect(answer).toMatchObject({ status: "error" });
    expect(JSON.stringify(answer)).toMatch(/Only an undo of a plan applied in the last 24 hours is applied without review/);
    expect(await statusOf(undo)).toBe("draft");
  });

  it("an admin applies it at once: the undo runs, the original reads Undone, every owner is told, twice is refused", async () => {
    const owners = [team.owner, await addMember(team.owner, "OWNER")];
    await signInAs(team.admin);
    expect(await call(applyUndoAction, { planId: undo })).toEqual({ status: "success", message: "Undoing. Progress shows below." });
    await Promise.all(afterAnswer.splice(0));
    expect(await statusOf(undo)).toBe("applied");
    const told = await prisma.inboxItem.findMany({ where: { planId: undo, kind: "undo_without_review" }, select: { userId: true } });
    expect(told.map((item) => item.userId).sort()).toEqual(owners.map((owner) => owner.userId).sort());
    const answer = await call(applyUndoAction, { planId: undo });
    expect(answer.status).toBe("error");
    expect(JSON.stringify(answer)).not.toContain(GENERIC_ERROR_MESSAGE);
  });
});
