import "server-only";
import type { Actor } from "@/lib/access/actor";
import { auditByActor } from "@/lib/audit/log";
import { prisma } from "@/lib/db/prisma";
import type { TriggerKey } from "@/lib/setup/setup-data";
import { requireManager, type RequestContext } from "@/lib/access/guards";
import { sortTriggerKeys } from "./triggers";

/**
 * The triggers every live event of the team's account must send ("registrant insert, update and
 * delete"), saved per team: coverage shows pass or fail per event against them, and a health
 * check reports the live events that miss one.
 */
export async function getRequiredTriggers(actor: Pick<Actor, "teamId">): Promise<TriggerKey[]> {
  const team = await prisma.team.findUnique({ where: { id: actor.teamId }, select: { requiredTriggers: true } });
  return sortTriggerKeys((team?.requiredTriggers ?? []) as TriggerKey[]);
}

/** Owners and admins: replaces the team's required triggers (already validated keys). */
export async function setRequiredTriggers(actor: Actor, triggers: readonly TriggerKey[], context: RequestContext = {}): Promise<TriggerKey[]> {
  const wanted = sortTriggerKeys([...new Set(triggers)]);
  await prisma.$transaction(async (tx) => {
    await requireManager(tx, actor);
    const before = await tx.team.findUniqueOrThrow({ where: { id: actor.teamId }, select: { requiredTriggers: true } });
    await tx.team.update({ where: { id: actor.teamId }, data: { requiredTriggers: wanted } });
    await auditByActor(
      actor,
      { action: "coverage.requirements_changed", target: actor.teamId, ip: context.ip ?? null, metadata: { before: before.requiredTriggers, after: wanted } },
      tx,
    );
  });
  return wanted;
}
