// The health and coverage actions (lib/actions/health/*, lib/actions/coverage/*), called as a crafted
// direct request would call them, against the sandbox's demo account over real HTTP.
import { describe, expect, it, vi } from "vitest";
vi.mock("next/headers", () => import("./support/next-headers"));
vi.mock("next/cache", () => import("./support/next-cache"));

import { revalidatePath } from "next/cache";
import { setRequiredTriggersAction } from "@/lib/actions/coverage/set-required-triggers";
import { refreshSetupAction } from "@/lib/actions/coverage/refresh-setup";
import { muteFindingAction } from "@/lib/actions/health/mute-finding";
import { unmuteFindingAction } from "@/lib/actions/health/unmute-finding";
import { setCheckPolicyAction } from "@/lib/actions/health/set-check-policy";
import { setNewEventWebhooksAction } from "@/lib/actions/coverage/set-new-event-webhooks";
import { actorForSession } from "@/lib/auth/session";
import { saveCredential } from "@/lib/credentials/store";
import { prisma } from "@/lib/db/prisma";
import { loadHealthReport } from "@/lib/health/report";
import { DEMO_CREDENTIALS, OTHER_CREDENTIALS } from "@/lib/sandbox/demo-credentials";
import type { Actor } from "@/lib/access/actor";
import { addMember, createTeam } from "@/tests/teams/fixtures";
import { call, expectSignInRedirect, redirectOf } from "./support/call";
import { signedOutBeforeEach, signInAs } from "./support/request";
import { portalSandboxForFile } from "./support/sandbox";

const sandbox = portalSandboxForFile();

signedOutBeforeEach("/health");

/** A team whose owner holds the sandbox's demo credentials, and the first plain-HTTP finding of that account. */
async function teamWithFindings(): Promise<{ owner: Actor; finding: { ruleId: string; key: string; message: string } }> {
  const owner = await createTeam();
  await saveCredential(owner, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
  const report = await loadHealthReport(owner);
  if (report.kind !== "ok") throw new Error(`setup failed: ${report.kind}`);
  const finding = report.active.find((each) => each.ruleId === "plain-http-url")!;
  return { owner, finding };
}

const mutesOf = (teamId: string) => prisma.healthMute.findMany({ where: { teamId } });
const auditOf = (teamId: string, action: string) => prisma.auditLog.findMany({ where: { teamId, action } });

describe("muteFindingAction", () => {
  it("sends a signed-out caller to sign-in and stores nothing", async () => {
    const { owner, finding } = await teamWithFindings();
    await expectSignInRedirect(call(muteFindingAction, { ruleId: finding.ruleId, findingKey: finding.key, reason: "x" }), "/health");
    expect(await mutesOf(owner.teamId)).toEqual([]);
  });

  it("refuses a member, an unknown check and an empty reason; stores nothing", async () => {
    const { owner, finding } = await teamWithFindings();
    const member = await addMember(owner, "MEMBER");
    await signInAs(member);
    expect(await call(muteFindingAction, { ruleId: finding.ruleId, findingKey: finding.key, reason: "Not mine" })).toEqual({
      status: "error",
      message: "Only owners and admins can manage the team.",
    });
    await signInAs(owner);
    expect(await call(muteFindingAction, { ruleId: "no-such-check", findingKey: "1", reason: "x" })).toEqual({
      status: "error",
      message: "There is no such health check.",
    });
    expect(await call(muteFindingAction, { ruleId: "Robert'); DROP TABLE", findingKey: "1", reason: "x" })).toMatchObject({
      status: "error",
      fieldErrors: { ruleId: "There is no such health check." },
    });
    expect(await call(muteFindingAction, { ruleId: finding.ruleId, findingKey: finding.key, reason: "   " })).toMatchObject({
      status: "error",
      fieldErrors: { reason: "Say why it is muted, so the team knows later." },
    });
    expect(await call(muteFindingAction, { ruleId: finding.ruleId, findingKey: finding.key, reason: "ok\u202Eevil" })).toMatchObject({
      status: "error",
      fieldErrors: { reason: "The reason has invisible control characters; type it again." },
    });
    expect(await call(muteFindingAction, { ruleId: finding.ruleId, findingKey: "1\u0000", reason: "x" })).toMatchObject({
      status: "error",
      fieldErrors: { findingKey: expect.any(String) },
    });
    expect(await mutesOf(owner.teamId)).toEqual([]);
  });

  it("an admin mutes one finding: hidden from the report, counted out of the navigation, audited with the reason; twice is refused", async () => {
    const { owner, finding } = await teamWithFindings();
    const admin = await addMember(owner, "ADMIN");
    await saveCredential(admin, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    const before = await loadHealthReport(admin);
    if (before.kind !== "ok") throw new Error(before.kind);
    const session = await signInAs(admin);

    expect(await call(muteFindingAction, { ruleId: finding.ruleId, findingKey: finding.key, reason: "Internal endpoint, 🛠 no personal data" })).toEqual({
      status: "success",
      message: "Finding muted.",
    });
    expect(revalidatePath).toHaveBeenCalledWith("/health");
    const after = await loadHealthReport(admin);
    if (after.kind !== "ok") throw new Error(after.kind);
    expect(after.active.some((each) => each.ruleId === finding.ruleId && each.key === finding.key)).toBe(false);
    expect(after.muted.map(({ finding: each, mute }) => [each.key, mute.reason])).toEqual([[finding.key, "Internal endpoint, 🛠 no personal data"]]);
    expect(after.counts.errors).toBe(before.counts.errors - 1);
    // The navigation's count, read with the session.
    const actor = await actorForSession({ uid: admin.userId, sid: session.sessionId, sv: 0 });
    expect(actor?.healthCounts).toEqual(after.counts);

    const [record] = await auditOf(owner.teamId, "health.muted");
    expect(record).toMatchObject({
      actorId: admin.userId,
      metadata: { ruleId: finding.ruleId, findingKey: finding.key, reason: "Internal endpoint, 🛠 no personal data" },
    });
    expect(await call(muteFindingAction, { ruleId: finding.ruleId, findingKey: finding.key, reason: "again" })).toEqual({
      status: "error",
      message: "That finding is already muted.",
    });
    expect(await mutesOf(owner.teamId)).toHaveLength(1);
  });

  it("a whole check muted hides each of its findings; another team holding the same key still sees them", async () => {
    const { owner, finding } = await teamWithFindings();
    const other = await teamWithFindings();
    await signInAs(owner);
    expect(await call(muteFindingAction, { ruleId: finding.ruleId, reason: "We know" })).toEqual({ status: "success", message: "Check muted." });
    const mine = await loadHealthReport(owner);
    const theirs = await loadHealthReport(other.owner);
    if (mine.kind !== "ok" || theirs.kind !== "ok") throw new Error("setup failed");
    expect(mine.active.filter((each) => each.ruleId === finding.ruleId)).toEqual([]);
    expect(mine.muted.length).toBeGreaterThan(0);
    expect(theirs.active.filter((each) => each.ruleId === finding.ruleId).length).toBe(mine.muted.length);
  });
});

describe("unmuteFindingAction", () => {
  it("refuses another team's mute (as not found) and a member; an owner unmutes, audited", async () => {
    const { owner, finding } = await teamWithFindings();
    const stranger = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const mute = await prisma.healthMute.create({ data: { teamId: owner.teamId, ruleId: finding.ruleId, findingKey: finding.key, reason: "r" } });

    await signInAs(stranger);
    expect(await call(unmuteFindingAction, { muteId: mute.id })).toEqual({ status: "error", message: "That mute no longer exists." });
    await signInAs(member);
    expect(await call(unmuteFindingAction, { muteId: mute.id })).toEqual({ status: "error", message: "Only owners and admins can manage the team." });
    expect(await mutesOf(owner.teamId)).toHaveLength(1);

    await signInAs(owner);
    expect(await call(unmuteFindingAction, { muteId: mute.id })).toEqual({ status: "success", message: "Shown again." });
    expect(await mutesOf(owner.teamId)).toEqual([]);
    expect(await auditOf(owner.teamId, "health.unmuted")).toHaveLength(1);
    expect(await call(unmuteFindingAction, { muteId: "../../etc" })).toMatchObject({ status: "error", fieldErrors: { muteId: "That mute no longer exists." } });
  });
});

describe("setRequiredTriggersAction", () => {
  it("a member is refused; a crafted trigger is refused; an owner saves, audited, and live events missing them become findings", async () => {
    const { owner } = await teamWithFindings();
    const member = await addMember(owner, "MEMBER");
    await signInAs(member);
    expect(await call(setRequiredTriggersAction, { form: "required-triggers", "require.registrant:insert": "on" })).toEqual({
      status: "error",
      message: "Only owners and admins can manage the team.",
    });
    await signInAs(owner);
    expect(await call(setRequiredTriggersAction, { form: "required-triggers", "require.__proto__:insert": "on" })).toMatchObject({ status: "error" });
    // A submission without the form's own field (empty, or crafted) changes nothing.
    expect(await call(setRequiredTriggersAction, {})).toMatchObject({ status: "error" });
    expect((await prisma.team.findUniqueOrThrow({ where: { id: owner.teamId } })).requiredTriggers).toEqual([]);

    const answer = await call(setRequiredTriggersAction, {
      form: "required-triggers",
      "require.registrant:delete": "on",
      "require.registrant:insert": "on",
      "require.session:update": "",
    });
    expect(answer).toEqual({ status: "success", message: "Saved: 2 required triggers." });
    expect((await prisma.team.findUniqueOrThrow({ where: { id: owner.teamId } })).requiredTriggers).toEqual(["registrant:insert", "registrant:delete"]);
    expect(await auditOf(owner.teamId, "coverage.requirements_changed")).toHaveLength(1);
    const report = await loadHealthReport(owner);
    if (report.kind !== "ok") throw new Error(report.kind);
    expect(report.active.some((each) => each.ruleId === "required-trigger-missing")).toBe(true);
  });
});

describe("refreshSetupAction", () => {
  it("goes back only to the pages built on the setup", async () => {
    const { owner } = await teamWithFindings();
    await signInAs(owner);
    expect(await redirectOf(call(refreshSetupAction, { returnTo: "/coverage?scope=all" }))).toBe("/coverage?scope=all");
    for (const returnTo of ["https://evil.example/", "//evil.example", "/settings", "/events/1/../../settings"]) {
      expect(await call(refreshSetupAction, { returnTo })).toMatchObject({ status: "error", fieldErrors: { returnTo: "Cannot go back there." } });
    }
  });
});

describe("the navigation's counts", () => {
  it("belong to the credential they were computed with: replaced, they are gone until the next check", async () => {
    const { owner } = await teamWithFindings();
    const session = await signInAs(owner);
    expect((await actorForSession({ uid: owner.userId, sid: session.sessionId, sv: 0 }))?.healthCounts).not.toBeNull();
    await saveCredential(owner, { baseUrl: sandbox.baseUrl, ...OTHER_CREDENTIALS });
    expect((await actorForSession({ uid: owner.userId, sid: session.sessionId, sv: 0 }))?.healthCounts).toBeNull();
  });
});

describe("the navigation's counts after a mute", () => {
  it("are recounted, not dropped: the owner and a teammate on the same account see one error fewer at once; a teammate on another account is forgotten", async () => {
    const { owner, finding } = await teamWithFindings();
    const sameAccount = await addMember(owner, "MEMBER");
    await saveCredential(sameAccount, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    await loadHealthReport(sameAccount);
    const otherAccount = await addMember(owner, "MEMBER");
    await saveCredential(otherAccount, { baseUrl: sandbox.baseUrl, ...OTHER_CREDENTIALS });
    await loadHealthReport(otherAccount);
    const errorsOf = async (userId: string) => (await prisma.healthSummary.findUnique({ where: { userId } }))?.errors ?? null;
    const before = (await errorsOf(owner.userId))!;
    expect(before).toBeGreaterThan(0);
    expect(await errorsOf(otherAccount.userId)).not.toBeNull();

    const session = await signInAs(owner);
    expect(await call(muteFindingAction, { ruleId: finding.ruleId, findingKey: finding.key, reason: "Known" })).toMatchObject({ status: "success" });
    expect(await errorsOf(owner.userId)).toBe(before - 1);
    expect(await errorsOf(sameAccount.userId)).toBe(before - 1);
    expect(await errorsOf(otherAccount.userId)).toBeNull();
    // What the layout reads for the badge: the new number, in the same request's next render.
    expect((await actorForSession({ uid: owner.userId, sid: session.sessionId, sv: 0 }))?.healthCounts?.errors).toBe(before - 1);

    const [mute] = await mutesOf(owner.teamId);
    expect(await call(unmuteFindingAction, { muteId: mute!.id })).toMatchObject({ status: "success" });
    expect(await errorsOf(owner.userId)).toBe(before);
    expect(await errorsOf(sameAccount.userId)).toBe(before);
  });
});

describe("setCheckPolicyAction", () => {
  const policiesOf = (teamId: string) => prisma.healthCheckPolicy.findMany({ where: { teamId }, select: { ruleId: true, policy: true } });

  it("sends a signed-out caller to sign-in and stores nothing", async () => {
    const owner = await createTeam();
    await expectSignInRedirect(call(setCheckPolicyAction, { ruleId: "plain-http-url", policy: "draft" }), "/health");
    expect(await policiesOf(owner.teamId)).toEqual([]);
  });

  it("refuses a member, an unknown check or policy, and “draft” for a check without a fix; stores nothing", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    await signInAs(member);
    expect(await call(setCheckPolicyAction, { ruleId: "plain-http-url", policy: "off" })).toEqual({
      status: "error",
      message: "Only owners and admins can manage the team.",
    });
    await signInAs(owner);
    expect(await call(setCheckPolicyAction, { ruleId: "no-such-check", policy: "off" })).toMatchObject({
      status: "error",
      fieldErrors: { ruleId: "There is no such health check." },
    });
    expect(await call(setCheckPolicyAction, { ruleId: "plain-http-url", policy: "apply-it" })).toMatchObject({
      status: "error",
      fieldErrors: { policy: "Choose Off, Tell us or Draft the fix." },
    });
    expect(await call(setCheckPolicyAction, { ruleId: "required-trigger-missing", policy: "draft" })).toEqual({
      status: "error",
      message: "This check has no fix the portal can draft: choose “Tell us” or “Off”.",
    });
    expect(await policiesOf(owner.teamId)).toEqual([]);
  });

  it("an admin turns a check off: muted for the team only (as a whole check), audited; “tell us” again stores nothing", async () => {
    const { owner } = await teamWithFindings();
    const other = await teamWithFindings();
    const admin = await addMember(owner, "ADMIN");
    await signInAs(admin);
    expect(await call(setCheckPolicyAction, { ruleId: "plain-http-url", policy: "off" })).toEqual({ status: "success", message: "Check turned off for the team." });
    expect(revalidatePath).toHaveBeenCalledWith("/health");
    expect(await policiesOf(owner.teamId)).toEqual([{ ruleId: "plain-http-url", policy: "off" }]);
    const mine = await loadHealthReport(owner);
    const theirs = await loadHealthReport(other.owner);
    if (mine.kind !== "ok" || theirs.kind !== "ok") throw new Error("setup failed");
    expect(mine.active.filter((each) => each.ruleId === "plain-http-url")).toEqual([]);
    expect(mine.muted.length).toBeGreaterThan(0);
    expect(mine.muted.every(({ mute }) => mute.fromPolicy === true)).toBe(true);
    // Another team's findings of the same account are theirs: untouched.
    expect(theirs.active.filter((each) => each.ruleId === "plain-http-url").length).toBe(mine.muted.length);
    expect(await auditOf(owner.teamId, "health.policy_changed")).toEqual([
      expect.objectContaining({ actorId: admin.userId, metadata: { ruleId: "plain-http-url", from: "tell", to: "off" } }),
    ]);

    expect(await call(setCheckPolicyAction, { ruleId: "plain-http-url", policy: "draft" })).toEqual({
      status: "success",
      message: "The portal drafts this check's fix after each sync.",
    });
    expect(await policiesOf(owner.teamId)).toEqual([{ ruleId: "plain-http-url", policy: "draft" }]);
    expect(await call(setCheckPolicyAction, { ruleId: "plain-http-url", policy: "tell" })).toMatchObject({ status: "success" });
    expect(await policiesOf(owner.teamId)).toEqual([]);
    expect(await policiesOf(other.owner.teamId)).toEqual([]);
  });
});

describe("setNewEventWebhooksAction", () => {
  const chosenOf = (teamId: string) => prisma.team.findUniqueOrThrow({ where: { id: teamId }, select: { newEventWebhookIds: true, newEventGroupId: true } });

  it("signed out: sent to sign in; a member and bad ids are refused in words; nothing is stored", async () => {
    const owner = await createTeam();
    await expectSignInRedirect(call(setNewEventWebhooksAction, { webhookIds: "411", groupId: "" }), "/health");
    const member = await addMember(owner, "MEMBER");
    await signInAs(member);
    expect(await call(setNewEventWebhooksAction, { webhookIds: "411", groupId: "" })).toEqual({
      status: "error",
      message: "Only owners and admins can manage the team.",
    });
    await signInAs(owner);
    for (const webhookIds of ["411; DROP", "-1", "1.5", "0", "99999999999", "1e3"]) {
      expect(await call(setNewEventWebhooksAction, { webhookIds, groupId: "" })).toMatchObject({
        status: "error",
        fieldErrors: { webhookIds: "Webhook ids are whole numbers, separated by commas or spaces." },
      });
    }
    expect(await call(setNewEventWebhooksAction, { webhookIds: Array.from({ length: 51 }, (_, i) => i + 1).join(","), groupId: "" })).toMatchObject({
      fieldErrors: { webhookIds: "Pick at most 50 webhooks, or name a group." },
    });
    expect(await call(setNewEventWebhooksAction, { webhookIds: "", groupId: "abc" })).toMatchObject({ fieldErrors: { groupId: "A group's id is a whole number." } });
    expect(await chosenOf(owner.teamId)).toEqual({ newEventWebhookIds: [], newEventGroupId: null });
  });

  it("an admin names webhooks and a group for their own team only, audited; empty clears them", async () => {
    const owner = await createTeam();
    const other = await createTeam();
    const admin = await addMember(owner, "ADMIN");
    await signInAs(admin);
    expect(await call(setNewEventWebhooksAction, { webhookIds: "412, 411 411\n7", groupId: " 9 " })).toEqual({
      status: "success",
      message: "Saved: new events go to 3 webhooks and group #9.",
    });
    expect(await chosenOf(owner.teamId)).toEqual({ newEventWebhookIds: [7, 411, 412], newEventGroupId: 9 });
    expect(await chosenOf(other.teamId)).toEqual({ newEventWebhookIds: [], newEventGroupId: null });
    expect(await auditOf(owner.teamId, "coverage.new_event_webhooks_changed")).toEqual([
      expect.objectContaining({ actorId: admin.userId, metadata: { before: { webhookIds: [], groupId: null }, after: { webhookIds: [7, 411, 412], groupId: 9 } } }),
    ]);
    expect(await call(setNewEventWebhooksAction, { webhookIds: "", groupId: "" })).toEqual({
      status: "success",
      message: "No webhooks named: nothing is drafted for new events.",
    });
    expect(await chosenOf(owner.teamId)).toEqual({ newEventWebhookIds: [], newEventGroupId: null });
  });
});
