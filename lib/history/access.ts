import "server-only";
import { cache } from "react";
import type { Actor } from "@/lib/access/actor";
import { prisma } from "@/lib/db/prisma";
import { SafeError, NotFoundError } from "@/lib/errors";
import { currentRole } from "@/lib/access/guards";
import { canManageTeam } from "@/lib/access/roles";
import { ownAccountKey } from "@/lib/ems-access/account-readers";

/**
 * Who may read a tracked account's change history (issue 24, finding 10).
 *
 * A tracker belongs to a team, but what it holds is the content of ONE EMS account (its groups,
 * webhooks, URLs, notification emails, who edited what), and the portal's rule everywhere else is
 * that a person sees an account's data only through their own credential. So history is readable by:
 * - members whose OWN saved credential reads that account: the same account key, i.e. the same
 *   API base URL and consumer key (lib/ems-access/account-key.ts; a rotated secret is the same account);
 * - owners and admins of the team (they turn tracking on, run it, and answer for it), with or
 *   without credentials.
 * Everyone else in the team (no credential, or a credential of another account) reads nothing of it:
 * not the feed, a group's timeline, "as of", the listing's "changed" marks, nor alert emails.
 *
 * Every reading function of lib/history and the alert recipients go through here; the role is the
 * one in the database now, the credential the one saved now.
 */

export interface TrackedAccount {
  id: string;
  accountLabel: string;
  /** When the team started tracking it: what the history knows begins there. */
  trackingSince: Date;
  /** The last sync's start; null until the first snapshot is taken. */
  lastSyncAt: Date | null;
}

/** Why someone may not read a tracker: no credential saved, or one of another EMS account. */
export type HistoryRefusalReason = "no-credential" | "other-account";

export interface HistoryAccess {
  /** The team's trackers this person may read. */
  readable: TrackedAccount[];
  /** The team's trackers this person may not read (what /changes explains). */
  refused: TrackedAccount[];
  /** Why `refused` is refused; null when nothing is. */
  reason: HistoryRefusalReason | null;
}

/** The rule in words, for one account (pages put a link to Settings after it). */
export function historyVisibilityRule(accountLabel: string): string {
  return `Change history of ${accountLabel} is visible to members who have saved credentials for that account, and to owners and admins.`;
}

/** What a person without access is told. */
export function historyRefusalMessage(accountLabel: string): string {
  return `${historyVisibilityRule(accountLabel)} Add your credentials in Settings.`;
}

export class HistoryAccessError extends SafeError {
  constructor(readonly accountLabel: string) {
    super(historyRefusalMessage(accountLabel), "history_forbidden");
    this.name = "HistoryAccessError";
  }
}

/** The team's trackers with their account keys (once per request). */
const teamTrackers = cache(async (teamId: string) =>
  prisma.changeTracker.findMany({
    where: { teamId },
    orderBy: { createdAt: "asc" },
    select: { id: true, accountLabel: true, accountKey: true, createdAt: true, lastRunAt: true },
  }),
);

const trackedAccount = (tracker: { id: string; accountLabel: string; createdAt: Date; lastRunAt: Date | null }): TrackedAccount => ({
  id: tracker.id,
  accountLabel: tracker.accountLabel,
  trackingSince: tracker.createdAt,
  lastSyncAt: tracker.lastRunAt,
});

/**
 * The team's tracker of the account the actor's own credential reads, or null (none saved, or that
 * account is not tracked). Readable by the rule's own terms, so no role lookup.
 */
export async function ownAccountTracker(actor: Pick<Actor, "teamId" | "userId">): Promise<TrackedAccount | null> {
  const trackers = await teamTrackers(actor.teamId);
  // Most teams track nothing: one indexed read, and the credential is neither read nor decrypted.
  if (trackers.length === 0) return null;
  const key = await ownAccountKey(actor.userId);
  const own = key === null ? undefined : trackers.find((tracker) => tracker.accountKey === key);
  return own ? trackedAccount(own) : null;
}

/**
 * Which of the team's trackers the actor may read. A member whose own credential reads every
 * tracked account costs no role lookup (the listings' "changed" marks, on every page view); else
 * the role is read from the database.
 */
export async function historyAccess(actor: Pick<Actor, "teamId" | "userId">): Promise<HistoryAccess> {
  const trackers = await teamTrackers(actor.teamId);
  if (trackers.length === 0) return { readable: [], refused: [], reason: null };
  const ownKey = await ownAccountKey(actor.userId);
  const own = trackers.filter((tracker) => tracker.accountKey === ownKey);
  const label = (tracker: (typeof trackers)[number]) => trackedAccount(tracker);
  if (own.length === trackers.length) return { readable: own.map(label), refused: [], reason: null };
  const role = await currentRole(prisma, actor);
  if (canManageTeam(role)) return { readable: trackers.map(label), refused: [], reason: null };
  return {
    readable: own.map(label),
    refused: trackers.filter((tracker) => tracker.accountKey !== ownKey).map(label),
    reason: ownKey === null ? "no-credential" : "other-account",
  };
}

/**
 * The tracker `trackerId` of the actor's team, when the actor may read it. Another team's id, or one
 * that does not exist, is "not found"; one of the team they may not read is a HistoryAccessError
 * with the explanation.
 */
export async function requireHistoryReader(actor: Pick<Actor, "teamId" | "userId">, trackerId: string): Promise<TrackedAccount> {
  const access = await historyAccess(actor);
  const readable = access.readable.find((tracker) => tracker.id === trackerId);
  if (readable) return readable;
  const refused = access.refused.find((tracker) => tracker.id === trackerId);
  if (refused) throw new HistoryAccessError(refused.accountLabel);
  throw new NotFoundError("That change history no longer exists, or it is not your team's.");
}
