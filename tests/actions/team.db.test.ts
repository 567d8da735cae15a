// The team actions (lib/actions/team/*), called as a crafted direct request would call them: signed
// out, with the wrong role, with another team's ids, with bad input, and as intended.
import { describe, expect, it, vi } from "vitest";
vi.mock("next/headers", () => import("./support/next-headers"));
vi.mock("next/cache", () => import("./support/next-cache"));

import { revalidatePath } from "next/cache";
import { prisma } from "@/lib/db/prisma";
import { acceptInvitationAction } from "@/lib/actions/team/accept-invitation";
import { changeMemberRoleAction } from "@/lib/actions/team/change-member-role";
import { createInvitationAction } from "@/lib/actions/team/create-invitation";
import { leaveTeamAction } from "@/lib/actions/team/leave-team";
import { removeMemberAction } from "@/lib/actions/team/remove-member";
import { revokeInvitationAction } from "@/lib/actions/team/revoke-invitation";
import { REAUTH_REQUIRED_MESSAGE } from "@/lib/access/reauth-shared";
import { createInvitation } from "@/lib/teams/invitations";
import { hashInvitationToken } from "@/lib/teams/invitation-token";
import type { Actor } from "@/lib/access/actor";
import { addMember, createTeam, membershipIdOf } from "@/tests/teams/fixtures";
import { call, expectSignInRedirect, redirectOf } from "./support/call";
import { signedOut, signedOutBeforeEach, signInAs } from "./support/request";

const roleOf = async (actor: Pick<Actor, "userId">) => (await prisma.membership.findUniqueOrThrow({ where: { userId: actor.userId } })).role;
const auditCount = (teamId: string, action: string) => prisma.auditLog.count({ where: { teamId, action } });

/** Signs `actor` in with a session that last proved who is using it 11 minutes ago (the window is 10). */
async function signInStale(actor: Pick<Actor, "userId">): Promise<void> {
  const { sessionId } = await signInAs(actor, { path: "/team" });
  await prisma.userSession.update({ where: { id: sessionId }, data: { reauthenticatedAt: new Date(Date.now() - 11 * 60 * 1000) } });
}

signedOutBeforeEach("/team");

describe("changeMemberRoleAction", () => {
  it("sends a signed-out caller to sign-in and changes nothing", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    await expectSignInRedirect(call(changeMemberRoleAction, { membershipId: await membershipIdOf(member), role: "OWNER" }), "/team");
    expect(await roleOf(member)).toBe("MEMBER");
  });

  it("refuses a member, an admin touching an owner, and another team's membership id", async () => {
    const owner = await createTeam();
    const admin = await addMember(owner, "ADMIN");
    const member = await addMember(owner, "MEMBER");
    const outsider = await createTeam();

    await signInAs(member);
    expect(await call(changeMemberRoleAction, { membershipId: await membershipIdOf(member), role: "OWNER" })).toEqual({
      status: "error",
      message: "Only owners and admins can manage the team.",
    });
    await signInAs(admin);
    expect(await call(changeMemberRoleAction, { membershipId: await membershipIdOf(owner), role: "MEMBER" })).toEqual({
      status: "error",
      message: "Admins cannot change an owner's role.",
    });
    await signInAs(outsider);
    expect(await call(changeMemberRoleAction, { membershipId: await membershipIdOf(member), role: "ADMIN" })).toEqual({
      status: "error",
      message: "That person is not a member of your team.",
    });
    expect([await roleOf(owner), await roleOf(admin), await roleOf(member)]).toEqual(["OWNER", "ADMIN", "MEMBER"]);
    expect(await auditCount(owner.teamId, "team.role_changed")).toBe(0);
    expect(revalidatePath).not.toHaveBeenCalled();
  });

  it("answers bad input with field errors and writes nothing", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    await signInAs(owner);
    expect(await call(changeMemberRoleAction, { membershipId: await membershipIdOf(member), role: "KING" })).toEqual({
      status: "error",
      fieldErrors: { role: "Choose a role." },
    });
    expect(await call(changeMemberRoleAction, { role: "ADMIN" })).toEqual({ status: "error", fieldErrors: { membershipId: expect.any(String) } });
    expect(await call(changeMemberRoleAction, { membershipId: " ", role: "ADMIN" })).toEqual({ status: "error", fieldErrors: { membershipId: "Which member?" } });
    expect(await roleOf(member)).toBe("MEMBER");
  });

  it("changes the role, records it and refreshes the team page", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    await signInAs(owner);
    expect(await call(changeMemberRoleAction, { membershipId: await membershipIdOf(member), role: "ADMIN" })).toEqual({ status: "success", message: "Role changed." });
    expect(await roleOf(member)).toBe("ADMIN");
    expect(await auditCount(owner.teamId, "team.role_changed")).toBe(1);
    expect(revalidatePath).toHaveBeenCalledWith("/team");
    expect(await call(changeMemberRoleAction, { membershipId: await membershipIdOf(member), role: "ADMIN" })).toEqual({
      status: "success",
      message: "That is already their role.",
    });
  });
});

describe("removeMemberAction", () => {
  it("sends a signed-out caller to sign-in and removes nobody", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    await expectSignInRedirect(call(removeMemberAction, { membershipId: await membershipIdOf(member) }), "/team");
    expect(await roleOf(member)).toBe("MEMBER");
  });

  it("refuses a member, an admin removing an owner, and another team's membership id", async () => {
    const owner = await createTeam();
    const admin = await addMember(owner, "ADMIN");
    const member = await addMember(owner, "MEMBER");
    const other = await addMember(owner, "MEMBER");
    const outsider = await createTeam();

    await signInAs(member);
    expect(await call(removeMemberAction, { membershipId: await membershipIdOf(other) })).toEqual({
      status: "error",
      message: "Only owners and admins can manage the team.",
    });
    await signInAs(admin);
    expect(await call(removeMemberAction, { membershipId: await membershipIdOf(owner) })).toEqual({ status: "error", message: "Admins cannot remove an owner." });
    await signInAs(outsider);
    expect(await call(removeMemberAction, { membershipId: await membershipIdOf(member) })).toEqual({
      status: "error",
      message: "That person is not a member of your team.",
    });
    expect(await prisma.membership.count({ where: { teamId: owner.teamId } })).toBe(4);
  });

  it("answers bad input with a field error and removes nobody", async () => {
    const owner = await createTeam();
    await addMember(owner, "MEMBER");
    await signInAs(owner);
    expect(await call(removeMemberAction, { membershipId: "" })).toEqual({ status: "error", fieldErrors: { membershipId: "Which member?" } });
    expect(await call(removeMemberAction, { membershipId: "x".repeat(101) })).toEqual({ status: "error", fieldErrors: { membershipId: expect.any(String) } });
    expect(await prisma.membership.count({ where: { teamId: owner.teamId } })).toBe(2);
  });

  it("removes the member and ends their sessions", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const versionBefore = (await prisma.user.findUniqueOrThrow({ where: { id: member.userId } })).sessionVersion;
    await signInAs(owner);
    expect(await call(removeMemberAction, { membershipId: await membershipIdOf(member) })).toEqual({
      status: "success",
      message: "Removed. Their sessions end at their next request; their credentials and personal views were deleted.",
    });
    expect(await prisma.membership.findUnique({ where: { userId: member.userId } })).toBeNull();
    expect((await prisma.user.findUniqueOrThrow({ where: { id: member.userId } })).sessionVersion).toBe(versionBefore + 1);
    expect(revalidatePath).toHaveBeenCalledWith("/team");
  });
});

describe("createInvitationAction", () => {
  it("sends a signed-out caller to sign-in and creates nothing", async () => {
    const owner = await createTeam();
    await expectSignInRedirect(call(createInvitationAction, { role: "MEMBER" }), "/team");
    expect(await prisma.invitation.count({ where: { teamId: owner.teamId } })).toBe(0);
  });

  it("refuses a member, and an admin inviting an owner", async () => {
    const owner = await createTeam();
    const admin = await addMember(owner, "ADMIN");
    const member = await addMember(owner, "MEMBER");
    await signInAs(member);
    expect(await call(createInvitationAction, { role: "MEMBER" })).toEqual({ status: "error", message: "Only owners and admins can manage the team." });
    await signInAs(admin);
    expect(await call(createInvitationAction, { role: "OWNER" })).toEqual({ status: "error", message: "As admin, you cannot invite someone as owner." });
    expect(await prisma.invitation.count({ where: { teamId: owner.teamId } })).toBe(0);
  });

  it("answers bad input with field errors and creates nothing", async () => {
    const owner = await createTeam();
    await signInAs(owner);
    expect(await call(createInvitationAction, { role: "GOD" })).toEqual({ status: "error", fieldErrors: { role: "Choose the role the invited person will have." } });
    expect(await call(createInvitationAction, { role: "MEMBER", email: "not an address" })).toEqual({
      status: "error",
      fieldErrors: { email: "Enter a valid email address, or leave it empty." },
    });
    expect(await prisma.invitation.count({ where: { teamId: owner.teamId } })).toBe(0);
  });

  it("hands out any role only to a recently authenticated session: a stale one is asked to re-authenticate", async () => {
    const owner = await createTeam();
    const admin = await addMember(owner, "ADMIN");
    await signInStale(owner);
    const refused = { status: "error", message: REAUTH_REQUIRED_MESSAGE, reauthRequired: "any" };
    expect(await call(createInvitationAction, { role: "OWNER" })).toEqual(refused);
    expect(await call(createInvitationAction, { role: "MEMBER" })).toEqual(refused);
    expect(await call(createInvitationAction, { role: "ADMIN", email: "someone@example.test" })).toEqual(refused);
    await signInStale(admin);
    expect(await call(createInvitationAction, { role: "ADMIN" })).toEqual(refused);
    expect(await call(createInvitationAction, { role: "MEMBER", email: "friend@example.test" })).toEqual(refused);
    expect(await prisma.invitation.count({ where: { teamId: owner.teamId } })).toBe(0);
    expect(await auditCount(owner.teamId, "invitation.created")).toBe(0);
    expect(revalidatePath).not.toHaveBeenCalled();

    // Signed in (or re-authenticated) within the window: created.
    await signInAs(owner, { path: "/team" });
    expect(await call(createInvitationAction, { role: "OWNER" })).toMatchObject({ status: "success", data: { role: "OWNER" } });
    await signInAs(admin, { path: "/team" });
    expect(await call(createInvitationAction, { role: "ADMIN" })).toMatchObject({ status: "success", data: { role: "ADMIN" } });
    expect(await prisma.invitation.count({ where: { teamId: owner.teamId } })).toBe(2);
  });

  it("refuses a member invitation from a stale session, and so does the data function (issue 24, finding 9)", async () => {
    // A cookie from an unlocked laptop must not make its holder a lasting membership of their own.
    const owner = await createTeam();
    await signInStale(owner);
    expect(await call(createInvitationAction, { role: "MEMBER" })).toMatchObject({ status: "error", reauthRequired: "any" });
    const stale = { ...owner, reauthenticatedAt: new Date(Date.now() - 11 * 60 * 1000) };
    await expect(createInvitation(stale, { role: "MEMBER" })).rejects.toMatchObject({ reauthRequired: "any" });
    expect(await prisma.invitation.count({ where: { teamId: owner.teamId } })).toBe(0);
  });

  it("creates a single-use link for the chosen role and shows it once; only its hash is stored", async () => {
    const owner = await createTeam();
    await signInAs(owner);
    const answer = await call(createInvitationAction, { role: "ADMIN", email: " Someone@Example.TEST " });
    expect(answer).toMatchObject({
      status: "success",
      message: "Invitation created. Copy the link now: it is shown only once.",
      data: { role: "ADMIN", email: "someone@example.test", mailed: false, path: expect.stringMatching(/^\/invite\/[A-Za-z0-9_-]{43}$/) },
    });
    const token = (answer as { data: { path: string } }).data.path.split("/").pop()!;
    const stored = await prisma.invitation.findFirstOrThrow({ where: { teamId: owner.teamId } });
    expect(stored).toMatchObject({ role: "ADMIN", email: "someone@example.test", tokenHash: hashInvitationToken(token), createdById: owner.userId });
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(revalidatePath).toHaveBeenCalledWith("/team");
  });
});

describe("revokeInvitationAction", () => {
  it("sends a signed-out caller to sign-in and revokes nothing", async () => {
    const owner = await createTeam();
    const { invitation } = await createInvitation(owner, { role: "MEMBER" });
    await expectSignInRedirect(call(revokeInvitationAction, { invitationId: invitation.id }), "/team");
    expect((await prisma.invitation.findUniqueOrThrow({ where: { id: invitation.id } })).revokedAt).toBeNull();
  });

  it("refuses a member, an admin revoking an owner's invitation, and another team's invitation id", async () => {
    const owner = await createTeam();
    const admin = await addMember(owner, "ADMIN");
    const member = await addMember(owner, "MEMBER");
    const outsider = await createTeam();
    const { invitation: forMember } = await createInvitation(owner, { role: "MEMBER" });
    const { invitation: forOwner } = await createInvitation(owner, { role: "OWNER" });

    await signInAs(member);
    expect(await call(revokeInvitationAction, { invitationId: forMember.id })).toEqual({ status: "error", message: "Only owners and admins can manage the team." });
    await signInAs(admin);
    expect(await call(revokeInvitationAction, { invitationId: forOwner.id })).toEqual({
      status: "error",
      message: "Only an owner can revoke an invitation for an owner.",
    });
    await signInAs(outsider);
    expect(await call(revokeInvitationAction, { invitationId: forMember.id })).toEqual({ status: "error", message: "That invitation does not exist in your team." });
    expect(await prisma.invitation.count({ where: { teamId: owner.teamId, revokedAt: { not: null } } })).toBe(0);
  });

  it("answers bad input with the form's message and revokes nothing", async () => {
    const owner = await createTeam();
    await createInvitation(owner, { role: "MEMBER" });
    await signInAs(owner);
    expect(await call(revokeInvitationAction, {})).toEqual({
      status: "error",
      message: "That invitation could not be found.",
      fieldErrors: { invitationId: expect.any(String) },
    });
    expect(await prisma.invitation.count({ where: { teamId: owner.teamId, revokedAt: { not: null } } })).toBe(0);
  });

  it("withdraws the invitation", async () => {
    const owner = await createTeam();
    const { invitation } = await createInvitation(owner, { role: "MEMBER" });
    await signInAs(owner);
    expect(await call(revokeInvitationAction, { invitationId: invitation.id })).toEqual({
      status: "success",
      message: "Invitation withdrawn: its link no longer works.",
    });
    expect((await prisma.invitation.findUniqueOrThrow({ where: { id: invitation.id } })).revokedAt).not.toBeNull();
    expect(await auditCount(owner.teamId, "invitation.revoked")).toBe(1);
  });
});

describe("acceptInvitationAction", () => {
  it("sends a signed-out caller to sign-in and uses nothing up", async () => {
    const host = await createTeam();
    const { token, invitation } = await createInvitation(host, { role: "MEMBER" });
    signedOut({ path: `/invite/${token}` });
    await expectSignInRedirect(call(acceptInvitationAction, { token }), `/invite/${token}`);
    expect((await prisma.invitation.findUniqueOrThrow({ where: { id: invitation.id } })).usedAt).toBeNull();
  });

  it("answers bad input with a field error, an unknown link with its message, and someone with teammates is refused", async () => {
    const host = await createTeam();
    const { token, invitation } = await createInvitation(host, { role: "MEMBER" });
    const busy = await createTeam();
    await addMember(busy, "MEMBER");

    await signInAs(busy);
    expect(await call(acceptInvitationAction, { token: "  " })).toEqual({ status: "error", fieldErrors: { token: "The invitation link is incomplete." } });
    expect(await call(acceptInvitationAction, { token })).toEqual({
      status: "error",
      message: `You belong to ${busy.teamName}, which has other members. Leave it first (Team page), then open this link again.`,
    });
    const solo = await createTeam();
    await signInAs(solo);
    expect(await call(acceptInvitationAction, { token: "x".repeat(43) })).toEqual({
      status: "error",
      message: "This invitation link is not valid. Check that you copied all of it, or ask the team for a new one.",
    });
    expect((await prisma.invitation.findUniqueOrThrow({ where: { id: invitation.id } })).usedAt).toBeNull();
    expect(await roleOf(busy)).toBe("OWNER");
    expect(await prisma.membership.findUniqueOrThrow({ where: { userId: solo.userId } })).toMatchObject({ teamId: solo.teamId, role: "OWNER" });
  });

  it("moves someone alone in their own team into the invitation's team with its role, then opens the team page", async () => {
    const host = await createTeam();
    const { token } = await createInvitation(host, { role: "ADMIN" });
    const solo = await createTeam();
    await signInAs(solo);
    expect(await redirectOf(call(acceptInvitationAction, { token }))).toBe("/welcome");
    expect(await prisma.membership.findUniqueOrThrow({ where: { userId: solo.userId } })).toMatchObject({ teamId: host.teamId, role: "ADMIN" });
    expect(await prisma.team.findUnique({ where: { id: solo.teamId } })).toBeNull();
  });
});

describe("leaveTeamAction", () => {
  it("sends a signed-out caller to sign-in and leaves nothing", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    await expectSignInRedirect(call(leaveTeamAction, { confirmTeamName: owner.teamName }), "/team");
    expect(await prisma.membership.findUniqueOrThrow({ where: { userId: member.userId } })).toMatchObject({ teamId: owner.teamId });
  });

  it("wants the team's name typed exactly, and the last owner cannot leave", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    await signInAs(member);
    expect(await call(leaveTeamAction, { confirmTeamName: "" })).toEqual({ status: "error", fieldErrors: { confirmTeamName: "Type the team's name to confirm." } });
    expect(await call(leaveTeamAction, { confirmTeamName: "Some other team" })).toEqual({
      status: "error",
      fieldErrors: { confirmTeamName: `Type “${owner.teamName}” exactly to confirm.` },
    });
    await signInAs(owner);
    expect(await call(leaveTeamAction, { confirmTeamName: owner.teamName })).toEqual({
      status: "error",
      message: "You are the team's last owner, so you cannot leave. Make someone else an owner first.",
    });
    expect(await prisma.membership.count({ where: { teamId: owner.teamId } })).toBe(2);
  });

  it("moves a member who leaves into a team of their own, then opens the team page", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    await signInAs(member);
    expect(await redirectOf(call(leaveTeamAction, { confirmTeamName: `  ${owner.teamName} ` }))).toBe("/team?left=1");
    const now = await prisma.membership.findUniqueOrThrow({ where: { userId: member.userId } });
    expect(now.teamId).not.toBe(owner.teamId);
    expect(now.role).toBe("OWNER");
    expect(await auditCount(owner.teamId, "team.member_left")).toBe(1);
  });
});
