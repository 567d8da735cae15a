import "server-only";
import type { Actor } from "@/lib/access/actor";
import { auditByActor } from "@/lib/audit/log";
import { ensureTeamFor } from "@/lib/teams/personal-team";
import { dropOrphanedTokenCache, forgetOrphanedCredential } from "@/lib/credentials/store";
import { prisma, type TransactionClient } from "@/lib/db/prisma";
import { SafeError, ForbiddenError, NotFoundError } from "@/lib/errors";
import { currentRole, lockTeam, requireManager, type RequestContext } from "@/lib/access/guards";
import { ROLE_LABELS, assignableRoles, canManageMember, type TeamRole } from "@/lib/access/roles";
import { credentialStatus, type CredentialStatusKind } from "@/lib/credentials/status";

export interface TeamMember {
  membershipId: string;
  userId: string;
  name: string;
  email: string;
  role: TeamRole;
  joinedAt: Date;
  /** Whether they have saved API credentials; never the credentials themselves. */
  hasCredential: boolean;
  /** Their credentials' last check (lib/credentials/status.ts), without its message; null with none saved. */
  credential: { kind: CredentialStatusKind; label: string; checkedAt: Date | null } | null;
  /** Whether they sign in with two-factor. */
  twoFactorEnabled: boolean;
  isYou: boolean;
}

export interface TeamOverview {
  teamName: string;
  yourRole: TeamRole;
  ownerCount: number;
  members: TeamMember[];
}

const ROLE_ORDER: Record<TeamRole, number> = { OWNER: 0, ADMIN: 1, MEMBER: 2 };

/** What a teammate may know of a member's credentials: how the last check went, not what it said. */
function memberCredential(check: Parameters<typeof credentialStatus>[0]): TeamMember["credential"] {
  const { kind, label, checkedAt } = credentialStatus(check);
  return { kind, label, checkedAt };
}

/** Everyone in the actor's team. Any member may see who is in their team. */
export async function getTeamOverview(actor: Actor): Promise<TeamOverview> {
  return prisma.$transaction(async (tx) => {
    const yourRole = await currentRole(tx, actor);
    const team = await tx.team.findUniqueOrThrow({ where: { id: actor.teamId }, select: { name: true } });
    const rows = await tx.membership.findMany({
      where: { teamId: actor.teamId },
      select: {
        id: true,
        role: true,
        createdAt: true,
        user: {
          select: {
            id: true,
            name: true,
            email: true,
            credential: { select: { id: true, lastVerifiedAt: true, lastErrorAt: true, lastError: true, lastErrorCode: true } },
            twoFactor: { select: { enabledAt: true } },
          },
        },
      },
    });
    const members = rows
      .map((row) => ({
        membershipId: row.id,
        userId: row.user.id,
        name: row.user.name,
        email: row.user.email,
        role: row.role,
        joinedAt: row.createdAt,
        hasCredential: row.user.credential !== null,
        credential: row.user.credential ? memberCredential(row.user.credential) : null,
        twoFactorEnabled: Boolean(row.user.twoFactor?.enabledAt),
        isYou: row.user.id === actor.userId,
      }))
      .sort((a, b) => ROLE_ORDER[a.role] - ROLE_ORDER[b.role] || a.joinedAt.getTime() - b.joinedAt.getTime());
    return { teamName: team.name, yourRole, ownerCount: members.filter((m) => m.role === "OWNER").length, members };
  });
}

async function countOwners(tx: TransactionClient, teamId: string): Promise<number> {
  return tx.membership.count({ where: { teamId, role: "OWNER" } });
}

async function findTeamMembership(tx: TransactionClient, actor: Actor, membershipId: string) {
  // The team id is part of the lookup: a crafted id from another team is "not found", never acted on.
  const membership = await tx.membership.findFirst({
    where: { id: membershipId, teamId: actor.teamId },
    select: { id: true, role: true, userId: true, teamId: true, user: { select: { email: true } } },
  });
  if (!membership) throw new NotFoundError("That person is not a member of your team.");
  return membership;
}

export async function changeMemberRole(actor: Actor, input: { membershipId: string; role: TeamRole }, context: RequestContext = {}): Promise<{ changed: boolean }> {
  return prisma.$transaction(async (tx) => {
    await lockTeam(tx, actor.teamId);
    const actorRole = await requireManager(tx, actor);
    const target = await findTeamMembership(tx, actor, input.membershipId);
    if (!canManageMember(actorRole, target.role)) throw new ForbiddenError("Admins cannot change an owner's role.");
    if (!assignableRoles(actorRole).includes(input.role)) {
      throw new ForbiddenError(`As ${ROLE_LABELS[actorRole].toLowerCase()}, you cannot make someone ${ROLE_LABELS[input.role].toLowerCase()}.`);
    }
    if (target.role === input.role) return { changed: false };
    if (target.role === "OWNER" && (await countOwners(tx, actor.teamId)) <= 1) {
      throw new SafeError("The team's last owner cannot be demoted. Make someone else an owner first.", "last_owner");
    }
    await tx.membership.update({ where: { id: target.id }, data: { role: input.role } });
    await auditByActor(
      actor,
      {
        action: "team.role_changed",
        target: `user:${target.userId}`,
        ip: context.ip ?? null,
        metadata: { email: target.user.email, from: target.role, to: input.role },
      },
      tx,
    );
    return { changed: true };
  });
}

/**
 * What leaving a team takes with it: the person's own API credentials (and the cached token, unless
 * a teammate uses the same credentials), their personal views, default-view choices and favourites. Views they
 * shared with the team stay, without a maker. A removed person's sessions end at their next request.
 */
async function detachFromTeam(
  tx: TransactionClient,
  userId: string,
  teamId: string,
  options: { endSessions: boolean },
): Promise<{ outcome: { deletedViews: number; keptTeamViews: number; hadCredential: boolean }; orphanedFingerprint: string | null }> {
  const credential = await tx.apiCredential.findUnique({ where: { userId }, select: { id: true, fingerprint: true } });
  let orphanedFingerprint: string | null = null;
  if (credential) {
    await tx.apiCredential.delete({ where: { id: credential.id } });
    orphanedFingerprint = await dropOrphanedTokenCache(tx, credential.fingerprint);
  }
  await tx.userDefaultView.deleteMany({ where: { userId } });
  await tx.savedViewFavourite.deleteMany({ where: { userId, view: { teamId } } });
  const deleted = await tx.savedView.deleteMany({ where: { ownerId: userId, teamId, scope: "PERSONAL" } });
  const kept = await tx.savedView.updateMany({ where: { ownerId: userId, teamId, scope: "TEAM" }, data: { ownerId: null } });
  await tx.membership.delete({ where: { userId } });
  if (options.endSessions) await tx.user.update({ where: { id: userId }, data: { sessionVersion: { increment: 1 } } });
  return { outcome: { deletedViews: deleted.count, keptTeamViews: kept.count, hadCredential: credential !== null }, orphanedFingerprint };
}

export async function removeMember(actor: Actor, input: { membershipId: string }, context: RequestContext = {}): Promise<void> {
  const orphaned = await prisma.$transaction(async (tx) => {
    await lockTeam(tx, actor.teamId);
    const actorRole = await requireManager(tx, actor);
    const target = await findTeamMembership(tx, actor, input.membershipId);
    if (target.userId === actor.userId) throw new SafeError("To leave the team yourself, use “Leave team”.", "use_leave");
    if (!canManageMember(actorRole, target.role)) throw new ForbiddenError("Admins cannot remove an owner.");
    // An owner removing another owner always leaves at least themselves; checked anyway.
    if (target.role === "OWNER" && (await countOwners(tx, actor.teamId)) <= 1) {
      throw new SafeError("The team's last owner cannot be removed.", "last_owner");
    }
    const { outcome, orphanedFingerprint } = await detachFromTeam(tx, target.userId, actor.teamId, { endSessions: true });
    await auditByActor(
      actor,
      {
        action: "team.member_removed",
        target: `user:${target.userId}`,
        ip: context.ip ?? null,
        metadata: { email: target.user.email, role: target.role, ...outcome },
      },
      tx,
    );
    return orphanedFingerprint;
  });
  await forgetOrphanedCredential(orphaned);
}

/**
 * The actor leaves their team: their credentials and personal views go, as on removal, and they
 * continue in a new team of their own. The last owner cannot leave (make someone else an owner first).
 */
export async function leaveTeam(actor: Actor, context: RequestContext = {}): Promise<void> {
  const orphaned = await prisma.$transaction(async (tx) => {
    await lockTeam(tx, actor.teamId);
    const role = await currentRole(tx, actor);
    if (role === "OWNER" && (await countOwners(tx, actor.teamId)) <= 1) {
      throw new SafeError("You are the team's last owner, so you cannot leave. Make someone else an owner first.", "last_owner");
    }
    const { outcome, orphanedFingerprint } = await detachFromTeam(tx, actor.userId, actor.teamId, { endSessions: false });
    // One team per person, always: they carry on in a new team of their own, from which an
    // invitation link can move them (lib/teams/invitations.ts acceptInvitation).
    await ensureTeamFor({ id: actor.userId, name: actor.name }, tx);
    await auditByActor(
      actor,
      {
        action: "team.member_left",
        target: `user:${actor.userId}`,
        ip: context.ip ?? null,
        metadata: { role, ...outcome },
      },
      tx,
    );
    return orphanedFingerprint;
  });
  await forgetOrphanedCredential(orphaned);
}
