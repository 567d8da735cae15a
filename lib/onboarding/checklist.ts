import "server-only";
import type { Actor } from "@/lib/access/actor";
import { prisma } from "@/lib/db/prisma";

/**
 * The first-run checklist on the landing page: connect an account, see its webhook groups, save a
 * view, invite a teammate. Each step is ticked from what the database already knows (never an EMS
 * call), in ONE statement per page view; dismissed, it is gone for good for this membership.
 * It is one person's, never the team's: their own credentials, their own look at the groups, a view
 * they own, an invitation they made. A teammate who joins starts with nothing done, and sees the
 * invitation step only when their role may invite.
 */
export type ChecklistStepKey = "connect" | "groups" | "view" | "invite";

export interface ChecklistStep {
  key: ChecklistStepKey;
  label: string;
  /** Where the step is done. */
  href: string;
  /** What to do there, in a few words. */
  hint: string;
  done: boolean;
}

export interface Checklist {
  steps: ChecklistStep[];
  doneCount: number;
  allDone: boolean;
}

/** What the statement reads; the steps are derived from it (pure, so it is tested without a database). */
export interface ChecklistFacts {
  dismissed: boolean;
  /** Saved credentials whose last check succeeded (Settings' "Connected"). */
  connected: boolean;
  groupsSeen: boolean;
  hasOwnView: boolean;
  /** An invitation this person made that was used, or is still open. */
  invitedSomeone: boolean;
  /** Whether their role may invite (owners and admins): members have no invitation step. */
  canInvite: boolean;
}

export function checklistOf(facts: ChecklistFacts): Checklist | null {
  if (facts.dismissed) return null;
  const all: ChecklistStep[] = [
    {
      key: "connect",
      label: "Connect your EMS account",
      href: "/settings/credentials",
      hint: "Your EMS API key and secret, or the built-in sandbox to try things out",
      done: facts.connected,
    },
    { key: "groups", label: "See your webhook groups", href: "/webhook-groups", hint: "Open the list with working credentials", done: facts.groupsSeen },
    { key: "view", label: "Save a view", href: "/webhook-groups", hint: "Filter or sort the list, then save it as a view", done: facts.hasOwnView },
    { key: "invite", label: "Invite a teammate", href: "/team", hint: "Create an invitation link on the Team page", done: facts.invitedSomeone },
  ];
  const steps = all.filter((step) => step.key !== "invite" || facts.canInvite);
  const doneCount = steps.filter((step) => step.done).length;
  return { steps, doneCount, allDone: doneCount === steps.length };
}

/**
 * The actor's checklist, or null once dismissed (or when the membership is gone). With
 * `markGroupsSeen` (the webhook groups listing is being shown), the same statement records that the
 * person has now seen their groups, provided their credentials work and the step is not yet done.
 * Only the actor's own membership in their own team is read or written.
 */
export async function getChecklist(actor: Pick<Actor, "userId" | "teamId">, options: { markGroupsSeen?: boolean } = {}): Promise<Checklist | null> {
  const mark = options.markGroupsSeen === true;
  // A data-modifying WITH runs once, and the SELECT sees the row as it was: the COALESCE adds the mark.
  const rows = await prisma.$queryRaw<ChecklistFacts[]>`
    WITH "moment" AS (SELECT now() AT TIME ZONE 'UTC' AS t),
    "credential" AS (
      SELECT (c."lastVerifiedAt" IS NOT NULL AND (c."lastErrorAt" IS NULL OR c."lastErrorAt" <= c."lastVerifiedAt")) AS ok
      FROM "ApiCredential" AS c WHERE c."userId" = ${actor.userId}
    ),
    "seen" AS (
      UPDATE "Membership" AS m SET "webhookGroupsSeenAt" = "moment".t
      FROM "moment"
      WHERE ${mark}::boolean AND m."userId" = ${actor.userId} AND m."teamId" = ${actor.teamId}
        AND m."webhookGroupsSeenAt" IS NULL AND m."checklistDismissedAt" IS NULL
        AND EXISTS (SELECT 1 FROM "credential" WHERE ok)
      RETURNING m."id"
    )
    SELECT (m."checklistDismissedAt" IS NOT NULL) AS "dismissed",
           COALESCE((SELECT ok FROM "credential"), false) AS "connected",
           (m."webhookGroupsSeenAt" IS NOT NULL OR EXISTS (SELECT 1 FROM "seen")) AS "groupsSeen",
           EXISTS (SELECT 1 FROM "SavedView" AS v WHERE v."teamId" = m."teamId" AND v."ownerId" = m."userId") AS "hasOwnView",
           EXISTS (SELECT 1 FROM "Invitation" AS i, "moment"
                   WHERE i."teamId" = m."teamId" AND i."createdById" = m."userId"
                     AND (i."usedAt" IS NOT NULL OR (i."revokedAt" IS NULL AND i."expiresAt" > "moment".t))) AS "invitedSomeone",
           (m."role"::text IN ('OWNER', 'ADMIN')) AS "canInvite"
    FROM "Membership" AS m
    WHERE m."userId" = ${actor.userId} AND m."teamId" = ${actor.teamId}`;
  const row = rows[0];
  if (!row) return null;
  return checklistOf(row);
}

/**
 * Puts the actor's checklist away for good. Only their own membership of their own team: there is
 * nothing to name, so nobody can dismiss it for someone else. Idempotent (keeps the first moment).
 */
export async function dismissChecklist(actor: Pick<Actor, "userId" | "teamId">): Promise<void> {
  await prisma.membership.updateMany({
    where: { userId: actor.userId, teamId: actor.teamId, checklistDismissedAt: null },
    data: { checklistDismissedAt: new Date() },
  });
}

/**
 * Whether the actor's own credentials work (saved, and their last check succeeded: Settings'
 * "Connected", the checklist's first step): the home page opens the webhooks list then, else the
 * webhook groups list with the first-run checklist. One statement on the actor's own row.
 */
export async function hasWorkingCredential(actor: Pick<Actor, "userId">): Promise<boolean> {
  const credential = await prisma.apiCredential.findUnique({ where: { userId: actor.userId }, select: { lastVerifiedAt: true, lastErrorAt: true } });
  if (!credential?.lastVerifiedAt) return false;
  return credential.lastErrorAt === null || credential.lastErrorAt <= credential.lastVerifiedAt;
}
