import "server-only";
import { cache } from "react";
import type { Actor } from "@/lib/auth/session";
import { CredentialUnreadableError, loadOwnCredential } from "@/lib/credentials/store";
import { prisma } from "@/lib/db/prisma";
import { SafeError } from "@/lib/errors";
import { NotFoundError, currentRole } from "@/lib/teams/access";
import { canManageTeam, type TeamRole } from "@/lib/teams/roles";
import { accountKey } from "./account";

/**
 * Who may read a tracked account's change history (issue 24, finding 10).
 *
 * A tracker belongs to a team, but what it holds is the content of ONE EMS account (its groups,
 * webhooks, URLs, notification emails, who edited what), and the portal's rule everywhere else is
 * that a person sees an account's data only through their own credential. So history is readable by:
 * - members whose OWN saved credential reads that account: the same account key, i.e. the same
 *   API base URL and consumer key (lib/history/account.ts; a rotated secret is the same account);
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
  prisma.changeTracker.findMany({ where: { teamId }, orderBy: { createdAt: "asc" }, select: { id: true, accountLabel: true, accountKey: true } }),
);

/**
 * The account key of the credential `userId` has saved now, or null (none, or one that no longer
 * decrypts: it reads no account). Once per request.
 */
export const ownAccountKey = cache(async (userId: string): Promise<string | null> => {
  const credential = await loadOwnCredential({ userId }).catch((error: unknown) => {
    if (error instanceof CredentialUnreadableError) return null;
    throw error;
  });
  return credential ? accountKey(credential.baseUrl, credential.consumerKey) : null;
});

/**
 * May this member read the history of the account `trackerAccountKey` names? For one person of the
 * tracker's team whose role is known (the alert recipients: lib/alerts/deliveries.ts).
 */
export async function memberMayReadHistory(member: { userId: string; role: TeamRole }, trackerAccountKey: string): Promise<boolean> {
  if (canManageTeam(member.role)) return true;
  return (await ownAccountKey(member.userId)) === trackerAccountKey;
}

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
  return own ? { id: own.id, accountLabel: own.accountLabel } : null;
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
  const label = ({ id, accountLabel }: TrackedAccount) => ({ id, accountLabel });
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
