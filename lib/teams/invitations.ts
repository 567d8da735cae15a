import "server-only";
import { assertRecentlyAuthenticated } from "@/lib/access/recent-auth";
import type { Actor } from "@/lib/access/actor";
import { audit, auditByActor } from "@/lib/audit/log";
import { prisma, type TransactionClient } from "@/lib/db/prisma";
import { SafeError, ForbiddenError, NotFoundError } from "@/lib/errors";
import { currentRole, lockTeam, requireManager, type RequestContext } from "@/lib/access/guards";
import { INVITATION_LIFETIME_MS, hashInvitationToken, isWellFormedInvitationToken, newInvitationToken } from "./invitation-token";
import { ROLE_LABELS, assignableRoles, canManageMember, type TeamRole } from "@/lib/access/roles";

export interface PendingInvitation {
  id: string;
  role: TeamRole;
  email: string | null;
  createdAt: Date;
  expiresAt: Date;
  createdByEmail: string | null;
}

export interface CreatedInvitation {
  /** The only time the token exists outside the link: it is not stored, only its hash. */
  token: string;
  invitation: PendingInvitation;
}

/** Owners and admins invite; the role is fixed now, and admins cannot invite owners. */
export async function createInvitation(actor: Actor, input: { role: TeamRole; email?: string | null }, context: RequestContext = {}): Promise<CreatedInvitation> {
  // Any invitation hands out a lasting membership: a stale cookie must not be able to make one.
  assertRecentlyAuthenticated(actor);
  const token = newInvitationToken();
  const email = input.email?.trim().toLowerCase() || null;
  const invitation = await prisma.$transaction(async (tx) => {
    const actorRole = await requireManager(tx, actor);
    if (!assignableRoles(actorRole).includes(input.role)) {
      throw new ForbiddenError(`As ${ROLE_LABELS[actorRole].toLowerCase()}, you cannot invite someone as ${ROLE_LABELS[input.role].toLowerCase()}.`);
    }
    if (email) {
      const existing = await tx.user.findUnique({ where: { email }, select: { membership: { select: { teamId: true } } } });
      if (existing?.membership?.teamId === actor.teamId) {
        throw new SafeError(`${email} is already a member of this team.`, "already_member");
      }
    }
    const created = await tx.invitation.create({
      data: {
        teamId: actor.teamId,
        role: input.role,
        email,
        tokenHash: hashInvitationToken(token),
        createdById: actor.userId,
        expiresAt: new Date(Date.now() + INVITATION_LIFETIME_MS),
      },
    });
    await auditByActor(
      actor,
      {
        action: "invitation.created",
        target: `invitation:${created.id}`,
        ip: context.ip ?? null,
        metadata: { role: created.role, email, expiresAt: created.expiresAt.toISOString() },
      },
      tx,
    );
    return created;
  });
  return {
    token,
    invitation: {
      id: invitation.id,
      role: invitation.role,
      email: invitation.email,
      createdAt: invitation.createdAt,
      expiresAt: invitation.expiresAt,
      createdByEmail: actor.email,
    },
  };
}

/** Invitations still usable (not used, revoked or expired), newest first. Owners and admins only. */
export async function listPendingInvitations(actor: Actor): Promise<PendingInvitation[]> {
  return prisma.$transaction(async (tx) => {
    await requireManager(tx, actor);
    const rows = await tx.invitation.findMany({
      where: { teamId: actor.teamId, usedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
      orderBy: { createdAt: "desc" },
      select: { id: true, role: true, email: true, createdAt: true, expiresAt: true, createdBy: { select: { email: true } } },
    });
    return rows.map((row) => ({
      id: row.id,
      role: row.role,
      email: row.email,
      createdAt: row.createdAt,
      expiresAt: row.expiresAt,
      createdByEmail: row.createdBy?.email ?? null,
    }));
  });
}

export async function revokeInvitation(actor: Actor, invitationId: string, context: RequestContext = {}): Promise<void> {
  await prisma.$transaction(async (tx) => {
    const actorRole = await requireManager(tx, actor);
    // The team id is part of the lookup: an id from another team is simply "not found".
    const invitation = await tx.invitation.findFirst({ where: { id: invitationId, teamId: actor.teamId } });
    if (!invitation) throw new NotFoundError("That invitation does not exist in your team.");
    if (!canManageMember(actorRole, invitation.role)) {
      throw new ForbiddenError("Only an owner can revoke an invitation for an owner.");
    }
    if (invitation.usedAt) throw new SafeError("That invitation has already been used.", "invitation_used");
    if (invitation.revokedAt) return;
    await tx.invitation.update({ where: { id: invitation.id }, data: { revokedAt: new Date() } });
    await auditByActor(
      actor,
      {
        action: "invitation.revoked",
        target: `invitation:${invitation.id}`,
        ip: context.ip ?? null,
        metadata: { role: invitation.role, email: invitation.email },
      },
      tx,
    );
  });
}

export type InvitationStatus = "valid" | "used" | "expired" | "revoked";

export interface InvitationPreview {
  status: InvitationStatus;
  teamId: string;
  teamName: string;
  role: TeamRole;
  email: string | null;
  expiresAt: Date;
}

function statusOf(invitation: { usedAt: Date | null; revokedAt: Date | null; expiresAt: Date }, now = new Date()): InvitationStatus {
  if (invitation.usedAt) return "used";
  if (invitation.revokedAt) return "revoked";
  if (invitation.expiresAt.getTime() <= now.getTime()) return "expired";
  return "valid";
}

/**
 * What the invitation page may show to anyone holding the link: the team's name and the role.
 * Null for a token that matches nothing (or is not even well formed).
 */
export async function getInvitationPreview(token: string): Promise<InvitationPreview | null> {
  if (!isWellFormedInvitationToken(token)) return null;
  const invitation = await prisma.invitation.findUnique({
    where: { tokenHash: hashInvitationToken(token) },
    select: { teamId: true, role: true, email: true, usedAt: true, revokedAt: true, expiresAt: true, team: { select: { name: true } } },
  });
  if (!invitation) return null;
  return {
    status: statusOf(invitation),
    teamId: invitation.teamId,
    teamName: invitation.team.name,
    role: invitation.role,
    email: invitation.email,
    expiresAt: invitation.expiresAt,
  };
}

const REFUSALS: Record<Exclude<InvitationStatus, "valid">, string> = {
  used: "This invitation link has already been used. Ask the team for a new one.",
  expired: "This invitation link has expired. Ask the team for a new one.",
  revoked: "This invitation link was withdrawn. Ask the team for a new one.",
};

export interface RedeemedInvitation {
  teamId: string;
  teamName: string;
  role: TeamRole;
}

/**
 * Makes `userId` a member of the invitation's team with the role chosen when it was made, and uses
 * up the invitation. Runs inside the caller's transaction (the sign-up transaction, or
 * `acceptInvitation`). Throws SafeError for an unknown, used, revoked or expired link, for a link
 * made out to another address, and for a person who already belongs to a team.
 */
export async function redeemInvitation(tx: TransactionClient, input: { token: string; userId: string; email: string; ip?: string | null }): Promise<RedeemedInvitation> {
  const unknown = new SafeError("This invitation link is not valid. Check that you copied all of it, or ask the team for a new one.", "invitation_invalid");
  if (!isWellFormedInvitationToken(input.token)) throw unknown;
  const invitation = await tx.invitation.findUnique({
    where: { tokenHash: hashInvitationToken(input.token) },
    include: { team: { select: { name: true } } },
  });
  if (!invitation) throw unknown;
  const status = statusOf(invitation);
  if (status !== "valid") throw new SafeError(REFUSALS[status], `invitation_${status}`);
  const email = input.email.trim().toLowerCase();
  if (invitation.email && invitation.email !== email) {
    throw new SafeError(`This invitation is for ${invitation.email}. Sign up or sign in with that address.`, "invitation_other_email");
  }

  await lockTeam(tx, invitation.teamId);
  const existing = await tx.membership.findUnique({ where: { userId: input.userId }, select: { teamId: true } });
  if (existing) {
    throw new SafeError(
      existing.teamId === invitation.teamId
        ? "You are already a member of this team."
        : "You already belong to a team. Leave it first (Team page), then open this link again.",
      "already_in_team",
    );
  }

  // Single use, even when two people open the same link at the same moment: only one update matches.
  const now = new Date();
  const claimed = await tx.invitation.updateMany({
    where: { id: invitation.id, usedAt: null, revokedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now, usedById: input.userId },
  });
  if (claimed.count !== 1) throw new SafeError(REFUSALS.used, "invitation_used");

  await tx.membership.create({ data: { teamId: invitation.teamId, userId: input.userId, role: invitation.role } });
  await audit(
    {
      action: "team.joined",
      teamId: invitation.teamId,
      actorId: input.userId,
      actorEmail: email,
      target: `user:${input.userId}`,
      ip: input.ip ?? null,
      metadata: { role: invitation.role, invitationId: invitation.id },
    },
    tx,
  );
  return { teamId: invitation.teamId, teamName: invitation.team.name, role: invitation.role };
}

export type JoinSituation =
  | { kind: "same-team" }
  /** Alone in a team of their own: joining replaces it (it has nobody else to keep it). */
  | { kind: "solo-team"; teamName: string }
  /** In a team with other people: they must leave it first (one team per person). */
  | { kind: "other-team"; teamName: string; memberCount: number };

/** How the signed-in actor stands toward the invitation's team, for the invitation page. */
export async function getJoinSituation(actor: Actor, invitationTeamId: string): Promise<JoinSituation> {
  if (actor.teamId === invitationTeamId) return { kind: "same-team" };
  const memberCount = await prisma.membership.count({ where: { teamId: actor.teamId } });
  return memberCount <= 1 ? { kind: "solo-team", teamName: actor.teamName } : { kind: "other-team", teamName: actor.teamName, memberCount };
}

/**
 * A signed-in person joins by link. Allowed when their current team has nobody else in it: that
 * empty team (with its views and log) is deleted and they join the invitation's team; their own API
 * credentials stay theirs. Someone in a team with other people must leave it first.
 */
export async function acceptInvitation(actor: Actor, token: string, context: RequestContext = {}): Promise<RedeemedInvitation> {
  return prisma.$transaction(async (tx) => {
    await lockTeam(tx, actor.teamId);
    await currentRole(tx, actor);
    const preview = await tx.invitation.findUnique({
      where: { tokenHash: hashInvitationToken(isWellFormedInvitationToken(token) ? token : "") },
      select: { teamId: true },
    });
    if (preview?.teamId === actor.teamId) throw new SafeError("You are already a member of this team.", "already_in_team");
    const others = await tx.membership.count({ where: { teamId: actor.teamId, userId: { not: actor.userId } } });
    if (others > 0) {
      throw new SafeError(`You belong to ${actor.teamName}, which has other members. Leave it first (Team page), then open this link again.`, "already_in_team");
    }
    await tx.userDefaultView.deleteMany({ where: { userId: actor.userId } });
    await tx.membership.delete({ where: { userId: actor.userId } });
    await tx.team.delete({ where: { id: actor.teamId } });
    return redeemInvitation(tx, { token, userId: actor.userId, email: actor.email, ip: context.ip ?? null });
  });
}
