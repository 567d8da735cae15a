import "server-only";
import type { Actor } from "@/lib/access/actor";
import { trackerForActor } from "./as-of";
import { groupTimeline, type FeedEntry } from "./feed";

/** How far back a group's page shows its changes. */
export const GROUP_HISTORY_DAYS = 30;

/** A group's recent history, for its page: untracked, or the changes to it and its webhooks. */
export type GroupHistoryData = { tracked: false } | { tracked: true; entries: FeedEntry[] };

/**
 * The data function of a group page's history section: the last GROUP_HISTORY_DAYS of changes to the
 * group and its webhooks, from the team's tracker of the account this person's credential reads.
 */
export async function loadGroupHistory(actor: Pick<Actor, "teamId" | "userId">, groupId: number): Promise<GroupHistoryData> {
  const tracker = await trackerForActor(actor);
  if (!tracker) return { tracked: false };
  return { tracked: true, entries: await groupTimeline(actor, tracker.id, groupId, { days: GROUP_HISTORY_DAYS }) };
}

/**
 * A webhook's own recent history, for its page: the changes to it in its group's timeline (one
 * indexed query, the same as the group page's), newest first.
 */
export async function loadWebhookHistory(actor: Pick<Actor, "teamId" | "userId">, groupId: number, webhookId: number): Promise<GroupHistoryData> {
  const history = await loadGroupHistory(actor, groupId);
  if (!history.tracked) return history;
  return { tracked: true, entries: history.entries.filter((entry) => entry.kind === "webhook" && entry.recordId === webhookId) };
}
