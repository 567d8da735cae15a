import "server-only";
import type { Actor } from "@/lib/access/actor";
import type { TransactionClient } from "@/lib/db/prisma";
import { ForbiddenError } from "@/lib/errors";
import { canManageTeam, type TeamRole } from "./roles";

/** Where a change came from, for the audit log. */
export interface RequestContext {
  ip?: string | null;
}

/**
 * Serialises changes to one team's memberships (role changes, removals, leaving, joining), so that
 * two owners demoting each other at the same moment cannot leave the team without an owner.
 * A row lock on the team; held until the surrounding transaction ends.
 */
export async function lockTeam(tx: TransactionClient, teamId: string): Promise<void> {
  await tx.$executeRaw`SELECT 1 FROM "Team" WHERE "id" = ${teamId} FOR UPDATE`;
}

/**
 * The actor's membership as the database has it now: the session may be a few seconds old, and a
 * role checked for authorisation must be the current one.
 */
export async function currentRole(tx: TransactionClient, actor: Pick<Actor, "userId" | "teamId">): Promise<TeamRole> {
  const membership = await tx.membership.findUnique({ where: { userId: actor.userId }, select: { teamId: true, role: true } });
  if (!membership || membership.teamId !== actor.teamId) {
    throw new ForbiddenError("You are no longer a member of this team. Sign in again.");
  }
  return membership.role;
}

export async function requireManager(tx: TransactionClient, actor: Actor): Promise<TeamRole> {
  const role = await currentRole(tx, actor);
  if (!canManageTeam(role)) {
    throw new ForbiddenError("Only owners and admins can manage the team.");
  }
  return role;
}
