import "server-only";
import { prisma } from "@/lib/db/prisma";
import { log } from "@/lib/log";
import { deliverItems } from "./deliver";
import type { InboxOccasion } from "./kinds";

export type { InboxOccasion };

/**
 * Writing inbox items (issue 37 §4). Every item is about one occasion (a plan submitted at a time,
 * approved at a time, a plan's apply ending, a drift finding) and written at most once per person
 * and occasion: the unique (userId, dedupeKey) index and `skipDuplicates` make a second instance,
 * or a retried job, announcing the same occasion write nothing and send nothing.
 *
 * The person who made the move is never told of it; people no longer in the plan's team are not
 * told either. Items written are then delivered to the channels each recipient chose (deliver.ts).
 *
 * For the drift checks (issue 37 §3), `notifyDrift`:
 *
 *   notifyDrift(input: {
 *     teamId: string;      // the plan's team
 *     planId: string;      // the applied plan whose record changed again in the EMS
 *     findingKey: string;  // stable per finding (e.g. "webhook:411:url"): the same finding twice tells nobody twice
 *     detail: string;      // one sentence, no header value: "The URL … on webhook #411 was changed back in the EMS by jane@… at 15:02"
 *   }): Promise<number>    // how many people were told (the plan's applier and its author, once each)
 */

/** A plan's title or a detail kept within what a row, a line of mail and a phone's inbox can show. */
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Writes the occasion's items (none twice) and delivers the new ones; returns how many were new. */
export async function addInboxItems(occasion: InboxOccasion): Promise<number> {
  const wanted = [...new Set(occasion.recipients.filter((id): id is string => id !== null && id !== occasion.actorId))];
  if (wanted.length === 0) return 0;
  const members = await prisma.membership.findMany({ where: { teamId: occasion.teamId, userId: { in: wanted } }, select: { userId: true } });
  if (members.length === 0) return 0;
  const dedupeKey = `${occasion.kind}:${occasion.planId ?? "-"}:${occasion.occasion}`;
  const created = await prisma.inboxItem.createManyAndReturn({
    data: members.map(({ userId }) => ({
      userId,
      teamId: occasion.teamId,
      kind: occasion.kind,
      planId: occasion.planId,
      planTitle: clip(occasion.planTitle, 300),
      actorLabel: occasion.actorLabel,
      detail: occasion.detail ? clip(occasion.detail, 1000) : null,
      dedupeKey,
    })),
    skipDuplicates: true,
    select: { id: true, userId: true },
  });
  if (created.length > 0) {
    // The inbox holds the item whatever happens to the mail: a delivery that cannot be queued is logged.
    await deliverItems(occasion, dedupeKey, created).catch((error: unknown) =>
      log.error({ event: "inbox.delivery_failed", kind: occasion.kind, err: error }, "inbox: an item's email or Slack message could not be queued"),
    );
  }
  return created.length;
}

/** Drift on an applied plan's record (issue 37 §3 calls it after a sync): see the module's comment. */
export async function notifyDrift(input: { teamId: string; planId: string; findingKey: string; detail: string }): Promise<number> {
  const plan = await prisma.changePlan.findFirst({
    where: { id: input.planId, teamId: input.teamId },
    select: { title: true, accountKey: true, authorId: true, appliedById: true },
  });
  if (!plan) return 0;
  return addInboxItems({
    teamId: input.teamId,
    kind: "drift_on_applied",
    planId: input.planId,
    planTitle: plan.title,
    accountKey: plan.accountKey,
    actorId: null,
    actorLabel: null,
    detail: input.detail,
    recipients: [plan.appliedById, plan.authorId],
    occasion: input.findingKey,
  });
}

/** A plan no longer waits for review (approved, rejected, cancelled): its review items are done for everyone. */
export async function settleReviewItems(planId: string): Promise<void> {
  await prisma.inboxItem.updateMany({
    where: { planId, kind: { in: ["plan_to_review", "drafted_fix_to_review"] }, readAt: null },
    data: { readAt: new Date() },
  });
}
