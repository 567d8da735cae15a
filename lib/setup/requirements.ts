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

/** The webhooks every new event should have: picked one by one, and every webhook of a group. */
export interface NewEventWebhooks {
  webhookIds: number[];
  groupId: number | null;
}

/** The team's choice (none: nothing is drafted for a live event missing a required trigger). */
export async function getNewEventWebhooks(actor: Pick<Actor, "teamId">): Promise<NewEventWebhooks> {
  const team = await prisma.team.findUnique({ where: { id: actor.teamId }, select: { newEventWebhookIds: true, newEventGroupId: true } });
  return { webhookIds: team?.newEventWebhookIds ?? [], groupId: team?.newEventGroupId ?? null };
}

/** Owners and admins: replaces the webhooks every new event should have (ids validated by the action); audited. */
export async function setNewEventWebhooks(actor: Actor, wanted: NewEventWebhooks, context: RequestContext = {}): Promise<void> {
  const webhookIds = [...new Set(wanted.webhookIds)].sort((a, b) => a - b);
  await prisma.$transaction(async (tx) => {
    await requireManager(tx, actor);
    const before = await tx.team.findUniqueOrThrow({ where: { id: actor.teamId }, select: { newEventWebhookIds: true, newEventGroupId: true } });
    await tx.team.update({ where: { id: actor.teamId }, data: { newEventWebhookIds: webhookIds, newEventGroupId: wanted.groupId } });
    await auditByActor(
      actor,
      {
        action: "coverage.new_event_webhooks_changed",
        target: actor.teamId,
        ip: context.ip ?? null,
        metadata: { before: { webhookIds: before.newEventWebhookIds, groupId: before.newEventGroupId }, after: { webhookIds, groupId: wanted.groupId } },
      },
      tx,
    );
  });
}
