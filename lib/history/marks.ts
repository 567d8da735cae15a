import "server-only";
import type { Actor } from "@/lib/access/actor";
import { prisma } from "@/lib/db/prisma";
import { trackerForActor } from "./as-of";
import { changedSince } from "./feed";

/** Views of a page less than this apart are one visit: its marks stay while the person pages through. */
const VISIT_GAP_MS = 30 * 60_000;

/**
 * The rows of a listing page that changed since this person last looked (groups: the group or one
 * of its webhooks; events: the event; webhooks: the webhook), by the team's tracker of their own account. Notes this view.
 * Nothing is marked on a first visit, or when the account is not tracked.
 */
export async function listingMarks(
  actor: Pick<Actor, "teamId" | "userId" | "teamTracksHistory">,
  page: "webhook-groups" | "events" | "webhooks",
  ids: readonly number[],
): Promise<Set<number>> {
  // Known from the session's statement: most teams track nothing, and their listings ask no more.
  if (actor.teamTracksHistory === false) return new Set();
  const tracker = await trackerForActor(actor);
  if (!tracker) return new Set();
  const now = new Date();
  const previous = await prisma.listingVisit.findUnique({ where: { userId_page: { userId: actor.userId, page } } });
  // A new visit marks what changed since the last view of the previous one.
  const markSince = previous ? (now.getTime() - previous.seenAt.getTime() > VISIT_GAP_MS ? previous.seenAt : previous.markSince) : null;
  await prisma.listingVisit.upsert({
    where: { userId_page: { userId: actor.userId, page } },
    create: { userId: actor.userId, page, seenAt: now, markSince: null },
    update: { seenAt: now, markSince },
  });
  if (!markSince) return new Set();
  return changedSince(actor, tracker.id, page === "events" ? "event" : page === "webhooks" ? "webhook" : "group", ids, markSince);
}
