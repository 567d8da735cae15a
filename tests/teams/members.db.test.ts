import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { isSafeError } from "@/lib/errors";
import { saveCredential } from "@/lib/credentials/store";
import { changeMemberRole, getTeamOverview, leaveTeam, removeMember } from "@/lib/teams/members";
import { warmPool } from "../setup/db";
import { actorFor, addMember, createTeam, membershipIdOf } from "./fixtures";

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(isSafeError(error)).toBe(true);
    return (error as { code: string }).code;
  }
  throw new Error("expected a refusal, but it succeeded");
}

const roleOf = async (userId: string) => (await prisma.membership.findUniqueOrThrow({ where: { userId } })).role;

describe("team members", () => {
  it("lets a member change nobody's role and remove nobody", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const other = await addMember(owner, "MEMBER");
    expect(await refusal(changeMemberRole(member, { membershipId: await membershipIdOf(other), role: "ADMIN" }))).toBe("forbidden");
    expect(await refusal(changeMemberRole(member, { membershipId: await membershipIdOf(member), role: "OWNER" }))).toBe("forbidden");
    expect(await refusal(removeMember(member, { membershipId: await membershipIdOf(other) }))).toBe("forbidden");
    expect(await roleOf(other.userId)).toBe("MEMBER");
    expect(await roleOf(member.userId)).toBe("MEMBER");
  });

  it("lets an admin manage admins and members but never touch an owner or make one", async () => {
    const owner = await createTeam();
    const admin = await addMember(owner, "ADMIN");
    const member = await addMember(owner, "MEMBER");
    await changeMemberRole(admin, { membershipId: await membershipIdOf(member), role: "ADMIN" });
    expect(await roleOf(member.userId)).toBe("ADMIN");
    expect(await refusal(changeMemberRole(admin, { membershipId: await membershipIdOf(member), role: "OWNER" }))).toBe("forbidden");
    expect(await refusal(changeMemberRole(admin, { membershipId: await membershipIdOf(owner), role: "MEMBER" }))).toBe("forbidden");
    expect(await refusal(removeMember(admin, { membershipId: await membershipIdOf(owner) }))).toBe("forbidden");
    expect(await roleOf(owner.userId)).toBe("OWNER");
    const entry = await prisma.auditLog.findFirstOrThrow({ where: { teamId: owner.teamId, action: "team.role_changed" } });
    expect(entry.metadata).toMatchObject({ from: "MEMBER", to: "ADMIN" });
  });

  it("never leaves a team without an owner: the last owner can be neither demoted nor leave", async () => {
    const owner = await createTeam();
    await addMember(owner, "MEMBER");
    expect(await refusal(changeMemberRole(owner, { membershipId: await membershipIdOf(owner), role: "ADMIN" }))).toBe("last_owner");
    expect(await refusal(leaveTeam(owner))).toBe("last_owner");

    const second = await addMember(owner, "OWNER");
    await changeMemberRole(second, { membershipId: await membershipIdOf(owner), role: "ADMIN" });
    expect(await roleOf(owner.userId)).toBe("ADMIN");
    expect(await refusal(leaveTeam(second))).toBe("last_owner");
  });

  it("lets only one of two owners demoting each other at once succeed", async () => {
    // Several teams at once, on open connections: without the team lock, some pair demotes both.
    const pairs = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const a = await createTeam();
        const b = await addMember(a, "OWNER");
        return { a, b, ids: { a: await membershipIdOf(a), b: await membershipIdOf(b) } };
      }),
    );
    await warmPool();
    const results = await Promise.all(
      pairs.map(({ a, b, ids }) =>
        Promise.allSettled([changeMemberRole(a, { membershipId: ids.b, role: "MEMBER" }), changeMemberRole(b, { membershipId: ids.a, role: "MEMBER" })]),
      ),
    );
    for (const [index, settled] of results.entries()) {
      expect(settled.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect(await prisma.membership.count({ where: { teamId: pairs[index]!.a.teamId, role: "OWNER" } })).toBe(1);
    }
  });

  it("refuses crafted membership ids from another team and changes nothing there", async () => {
    const ours = await createTeam();
    const theirs = await createTeam();
    const victim = await addMember(theirs, "MEMBER");
    expect(await refusal(changeMemberRole(ours, { membershipId: await membershipIdOf(victim), role: "ADMIN" }))).toBe("not_found");
    expect(await refusal(removeMember(ours, { membershipId: await membershipIdOf(victim) }))).toBe("not_found");
    expect(await refusal(removeMember(ours, { membershipId: "does-not-exist" }))).toBe("not_found");
    expect(await roleOf(victim.userId)).toBe("MEMBER");
  });

  it("uses the role the database has now, not the one the session was issued with", async () => {
    const owner = await createTeam();
    const formerAdmin = await addMember(owner, "ADMIN");
    const member = await addMember(owner, "MEMBER");
    await changeMemberRole(owner, { membershipId: await membershipIdOf(formerAdmin), role: "MEMBER" });
    // `formerAdmin` still says ADMIN: a session issued before the change.
    expect(formerAdmin.role).toBe("ADMIN");
    expect(await refusal(removeMember(formerAdmin, { membershipId: await membershipIdOf(member) }))).toBe("forbidden");
  });

  it("removal deletes the member's credentials and personal views, keeps their team views, and ends their sessions", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    await saveCredential(member, { baseUrl: "https://ems.example.com", consumerKey: "member-key-123", consumerSecret: "member secret" });
    const personal = await prisma.savedView.create({
      data: { teamId: owner.teamId, ownerId: member.userId, page: "events", name: "Mine", query: "?a=1", scope: "PERSONAL" },
    });
    const shared = await prisma.savedView.create({ data: { teamId: owner.teamId, ownerId: member.userId, page: "events", name: "Ours", query: "?b=1", scope: "TEAM" } });
    await prisma.userDefaultView.create({ data: { userId: member.userId, page: "events", viewId: shared.id } });
    await prisma.savedViewFavourite.create({ data: { userId: member.userId, viewId: shared.id } });
    const ownersView = await prisma.savedView.create({
      data: { teamId: owner.teamId, ownerId: owner.userId, page: "events", name: "Owner's", query: "", scope: "PERSONAL" },
    });
    const versionBefore = (await prisma.user.findUniqueOrThrow({ where: { id: member.userId } })).sessionVersion;

    await removeMember(owner, { membershipId: await membershipIdOf(member) }, { ip: "192.0.2.7" });

    expect(await prisma.membership.findUnique({ where: { userId: member.userId } })).toBeNull();
    expect(await prisma.apiCredential.findUnique({ where: { userId: member.userId } })).toBeNull();
    expect(await prisma.savedView.findUnique({ where: { id: personal.id } })).toBeNull();
    expect(await prisma.savedView.findUniqueOrThrow({ where: { id: shared.id } })).toMatchObject({ ownerId: null, teamId: owner.teamId });
    expect(await prisma.savedView.findUnique({ where: { id: ownersView.id } })).not.toBeNull();
    expect(await prisma.userDefaultView.count({ where: { userId: member.userId } })).toBe(0);
    expect(await prisma.savedViewFavourite.count({ where: { userId: member.userId } })).toBe(0);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: member.userId } })).sessionVersion).toBe(versionBefore + 1);

    const entry = await prisma.auditLog.findFirstOrThrow({ where: { teamId: owner.teamId, action: "team.member_removed" } });
    expect(entry).toMatchObject({ actorId: owner.userId, target: `user:${member.userId}`, ip: "192.0.2.7" });
    expect(JSON.stringify(entry)).not.toMatch(/member-key-123|member secret/);

    // The removed member's old actor is refused everywhere, not just hidden.
    expect(await refusal(getTeamOverview(member))).toBe("forbidden");
  });

  it("leaving takes the member's credentials and personal views and starts a team of their own", async () => {
    const owner = await createTeam("Left behind");
    const member = await addMember(owner, "ADMIN", "Leaver");
    await saveCredential(member, { baseUrl: "https://ems.example.com", consumerKey: "leaver-key", consumerSecret: "leaver-secret" });
    await leaveTeam(member);
    expect(await prisma.apiCredential.findUnique({ where: { userId: member.userId } })).toBeNull();
    const after = await actorFor(member.userId);
    expect(after.teamId).not.toBe(owner.teamId);
    expect(after.role).toBe("OWNER");
    expect(await prisma.auditLog.count({ where: { teamId: owner.teamId, action: "team.member_left", actorId: member.userId } })).toBe(1);
  });

  it("shows an admin who has credentials, never the credentials", async () => {
    const owner = await createTeam();
    const admin = await addMember(owner, "ADMIN");
    const member = await addMember(owner, "MEMBER");
    await saveCredential(member, { baseUrl: "https://ems.example.com", consumerKey: "visible-nowhere-key", consumerSecret: "visible-nowhere-secret" });
    const overview = await getTeamOverview(admin);
    expect(overview.members.find((m) => m.userId === member.userId)?.hasCredential).toBe(true);
    const serialised = JSON.stringify(overview);
    expect(serialised).not.toMatch(/visible-nowhere|v1:/);
  });
});
