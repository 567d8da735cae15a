import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { isSafeError } from "@/lib/errors";
import {
  acceptInvitation,
  createInvitation,
  getInvitationPreview,
  getJoinSituation,
  listPendingInvitations,
  redeemInvitation,
  revokeInvitation,
} from "@/lib/teams/invitations";
import { warmPool } from "../setup/db";
import { actorFor, addMember, createTeam, createUser } from "./fixtures";

const redeem = (token: string, user: { id: string; email: string }) => prisma.$transaction((tx) => redeemInvitation(tx, { token, userId: user.id, email: user.email }));

async function refusal(promise: Promise<unknown>): Promise<{ message: string; code: string }> {
  try {
    await promise;
  } catch (error) {
    expect(isSafeError(error)).toBe(true);
    return { message: (error as Error).message, code: (error as { code: string }).code };
  }
  throw new Error("expected a refusal, but it succeeded");
}

describe("invitations", () => {
  it("makes a 32-byte base64url token and stores only its SHA-256, valid for 7 days, with the role chosen", async () => {
    const owner = await createTeam();
    const { token, invitation } = await createInvitation(owner, { role: "ADMIN" });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    const row = await prisma.invitation.findUniqueOrThrow({ where: { id: invitation.id } });
    expect(row.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.role).toBe("ADMIN");
    const days = (row.expiresAt.getTime() - row.createdAt.getTime()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);
    const audit = await prisma.auditLog.findFirstOrThrow({ where: { teamId: owner.teamId, action: "invitation.created" } });
    expect(JSON.stringify(audit)).not.toContain(token);
  });

  it("joins with the invited role, once: a second use is refused", async () => {
    const owner = await createTeam();
    const { token } = await createInvitation(owner, { role: "MEMBER" });
    const first = await createUser("First");
    await expect(redeem(token, first)).resolves.toMatchObject({ teamId: owner.teamId, role: "MEMBER" });
    expect(await prisma.membership.findUnique({ where: { userId: first.id } })).toMatchObject({ teamId: owner.teamId, role: "MEMBER" });
    expect(await prisma.auditLog.count({ where: { teamId: owner.teamId, action: "team.joined", actorId: first.id } })).toBe(1);

    const second = await createUser("Second");
    expect((await refusal(redeem(token, second))).code).toBe("invitation_used");
    expect(await prisma.membership.findUnique({ where: { userId: second.id } })).toBeNull();
    expect((await getInvitationPreview(token))?.status).toBe("used");
  });

  it("refuses an expired, a withdrawn and an unknown link", async () => {
    const owner = await createTeam();
    const expired = await createInvitation(owner, { role: "MEMBER" });
    await prisma.invitation.update({ where: { id: expired.invitation.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const user = await createUser("Late");
    expect((await refusal(redeem(expired.token, user))).code).toBe("invitation_expired");

    const revoked = await createInvitation(owner, { role: "MEMBER" });
    await revokeInvitation(owner, revoked.invitation.id);
    expect((await refusal(redeem(revoked.token, user))).code).toBe("invitation_revoked");

    expect((await refusal(redeem("A".repeat(43), user))).code).toBe("invitation_invalid");
    expect((await refusal(redeem("not even a token", user))).code).toBe("invitation_invalid");
    expect(await getInvitationPreview("A".repeat(43))).toBeNull();
    expect(await prisma.membership.findUnique({ where: { userId: user.id } })).toBeNull();
  });

  it("gives one of two simultaneous redemptions the seat, never both", async () => {
    // Several links at once, on open connections: without the compare-and-set, some pair lets both in.
    const races = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const owner = await createTeam();
        const { token } = await createInvitation(owner, { role: "MEMBER" });
        return { owner, token, people: [await createUser("A"), await createUser("B")] };
      }),
    );
    await warmPool();
    const results = await Promise.all(races.map(({ token, people }) => Promise.allSettled(people.map((person) => redeem(token, person)))));
    for (const [index, settled] of results.entries()) {
      expect(settled.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect(await prisma.membership.count({ where: { teamId: races[index]!.owner.teamId } })).toBe(2);
    }
  });

  it("binds a link made out to an address to that address", async () => {
    const owner = await createTeam();
    const invited = await createUser("Invited");
    const { token } = await createInvitation(owner, { role: "MEMBER", email: invited.email.toUpperCase() });
    const stranger = await createUser("Stranger");
    expect((await refusal(redeem(token, stranger))).code).toBe("invitation_other_email");
    await expect(redeem(token, invited)).resolves.toMatchObject({ teamId: owner.teamId });
  });

  it("lets only owners and admins invite, and admins not as owner", async () => {
    const owner = await createTeam();
    const admin = await addMember(owner, "ADMIN");
    const member = await addMember(owner, "MEMBER");
    expect((await refusal(createInvitation(member, { role: "MEMBER" }))).code).toBe("forbidden");
    expect((await refusal(createInvitation(admin, { role: "OWNER" }))).code).toBe("forbidden");
    await expect(createInvitation(admin, { role: "ADMIN" })).resolves.toBeTruthy();
    await expect(createInvitation(owner, { role: "OWNER" })).resolves.toBeTruthy();
    expect((await refusal(listPendingInvitations(member))).code).toBe("forbidden");
    expect(await listPendingInvitations(admin)).toHaveLength(2);
  });

  it("refuses a crafted invitation id from another team, and a member revoking", async () => {
    const ours = await createTeam();
    const theirs = await createTeam();
    const { invitation } = await createInvitation(theirs, { role: "MEMBER" });
    expect((await refusal(revokeInvitation(ours, invitation.id))).code).toBe("not_found");
    const member = await addMember(theirs, "MEMBER");
    expect((await refusal(revokeInvitation(member, invitation.id))).code).toBe("forbidden");
    expect((await prisma.invitation.findUniqueOrThrow({ where: { id: invitation.id } })).revokedAt).toBeNull();
    // An admin cannot withdraw an invitation for an owner.
    const owners = await createInvitation(theirs, { role: "OWNER" });
    const admin = await addMember(theirs, "ADMIN");
    expect((await refusal(revokeInvitation(admin, owners.invitation.id))).code).toBe("forbidden");
  });

  it("refuses someone who already belongs to a team with other people, and moves someone alone in theirs", async () => {
    const owner = await createTeam("Joinable");
    const busy = await createTeam("Busy");
    await addMember(busy, "MEMBER");
    const link = await createInvitation(owner, { role: "MEMBER" });

    expect(await getJoinSituation(busy, owner.teamId)).toMatchObject({ kind: "other-team", memberCount: 2 });
    expect((await refusal(acceptInvitation(busy, link.token))).code).toBe("already_in_team");
    expect((await refusal(prisma.$transaction((tx) => redeemInvitation(tx, { token: link.token, userId: busy.userId, email: busy.email })))).code).toBe(
      "already_in_team",
    );
    expect(await getJoinSituation(owner, owner.teamId)).toEqual({ kind: "same-team" });
    expect((await refusal(acceptInvitation(owner, link.token))).code).toBe("already_in_team");

    const solo = await createTeam("Solo");
    await prisma.savedView.create({ data: { teamId: solo.teamId, ownerId: solo.userId, page: "events", name: "mine", query: "", scope: "PERSONAL" } });
    expect(await getJoinSituation(solo, owner.teamId)).toMatchObject({ kind: "solo-team" });
    await expect(acceptInvitation(solo, link.token)).resolves.toMatchObject({ teamId: owner.teamId, role: "MEMBER" });
    expect(await prisma.team.findUnique({ where: { id: solo.teamId } })).toBeNull();
    expect((await actorFor(solo.userId)).teamId).toBe(owner.teamId);
    expect(await prisma.savedView.count({ where: { ownerId: solo.userId } })).toBe(0);
  });

  it("keeps the old team when the join fails (all or nothing)", async () => {
    const owner = await createTeam();
    const link = await createInvitation(owner, { role: "MEMBER" });
    await revokeInvitation(owner, link.invitation.id);
    const solo = await createTeam("Still here");
    await refusal(acceptInvitation(solo, link.token));
    expect(await prisma.team.findUnique({ where: { id: solo.teamId } })).not.toBeNull();
    expect((await actorFor(solo.userId)).teamId).toBe(solo.teamId);
  });
});
