import "server-only";
import type { Actor } from "@/lib/access/actor";
import { auditByActor } from "@/lib/audit/log";
import { prisma } from "@/lib/db/prisma";
import { SafeError, ForbiddenError } from "@/lib/errors";
import { currentRole, lockTeam, type RequestContext } from "@/lib/access/guards";

/** Whether the actor's team requires two-factor, and how many of its people have not turned it on. */
export async function teamTwoFactorOverview(actor: Actor): Promise<{ required: boolean; membersWithout: number }> {
  const [team, membersWithout] = await Promise.all([
    prisma.team.findUniqueOrThrow({ where: { id: actor.teamId }, select: { requireTwoFactor: true } }),
    prisma.membership.count({ where: { teamId: actor.teamId, user: { OR: [{ twoFactor: null }, { twoFactor: { enabledAt: null } }] } } }),
  ]);
  return { required: team.requireTwoFactor, membersWithout };
}

/**
 * An owner requires (or stops requiring) two-factor sign-in for everyone in their team. From then
 * on, a member without it reaches no page or action but enrolment (lib/auth/session.ts
 * `requireActor`). The owner must use two-factor first: nobody can require what they do not do.
 * The team is the actor's own, by the role in the database now, never an id from the request.
 */
export async function setTeamTwoFactorRequirement(actor: Actor, required: boolean, context: RequestContext = {}): Promise<void> {
  await prisma.$transaction(async (tx) => {
    await lockTeam(tx, actor.teamId);
    const role = await currentRole(tx, actor);
    if (role !== "OWNER") throw new ForbiddenError("Only owners can require two-factor sign-in.");
    if (required) {
      const own = await tx.twoFactor.count({ where: { userId: actor.userId, enabledAt: { not: null } } });
      if (!own) throw new SafeError("Turn on two-factor sign-in for yourself first (Account page).", "owner_without_two_factor");
    }
    await tx.team.update({ where: { id: actor.teamId }, data: { requireTwoFactor: required } });
    await auditByActor(actor, { action: "team.two_factor_requirement_changed", target: actor.teamId, ip: context.ip ?? null, metadata: { required } }, tx);
  });
}
