import "server-only";
import { queueMessage } from "@/lib/alerts/deliveries";
import { prisma } from "@/lib/db/prisma";
import { portalOriginFor } from "@/lib/portal-origin";
import { inboxSentence, INBOX_KIND_INFO, type InboxOccasion } from "./kinds";
import { choicesFor } from "./preferences";

/**
 * New inbox items to the channels their people chose (lib/inbox/preferences.ts), through the alert
 * deliveries (lib/alerts: the same rows, retries and once-only sending as a sync's alerts): an email
 * to each person who wants this kind by email, and one message to the team's Slack when any of them
 * wants it there. A delivery row belongs to the account's change tracker (it holds the Slack URL);
 * a team that tracks no account has only the inbox.
 */
export async function deliverItems(occasion: InboxOccasion, dedupeKey: string, created: readonly { id: string; userId: string }[]): Promise<number> {
  const people = created.map((item) => item.userId);
  const choices = await choicesFor(occasion.teamId, people, occasion.kind);
  const byEmail = people.filter((id) => choices.get(id)?.email);
  const bySlack = people.some((id) => choices.get(id)?.slack);
  if (byEmail.length === 0 && !bySlack) return 0;
  const tracker = await prisma.changeTracker.findFirst({
    where: { teamId: occasion.teamId, ...(occasion.accountKey ? { accountKey: occasion.accountKey } : {}) },
    select: { id: true },
    orderBy: { createdAt: "asc" },
  });
  if (!tracker) return 0;
  const users = await prisma.user.findMany({ where: { id: { in: byEmail } }, select: { email: true } });
  const sentence = inboxSentence({ kind: occasion.kind, planTitle: occasion.planTitle, actorLabel: occasion.actorLabel, detail: occasion.detail ?? null });
  const origin = portalOriginFor(null);
  return queueMessage({
    trackerId: tracker.id,
    teamId: occasion.teamId,
    syncId: `inbox:${dedupeKey}`.slice(0, 500),
    subject: `${INBOX_KIND_INFO[occasion.kind].subject}: ${occasion.planTitle}`,
    lines: [sentence, ...(occasion.detail ? [occasion.detail] : [])],
    link: occasion.planId ? `${origin}/plans/${occasion.planId}` : `${origin}/inbox`,
    emails: users.map((user) => user.email),
    slack: bySlack,
  });
}
