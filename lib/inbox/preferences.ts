import "server-only";
import type { Actor } from "@/lib/access/actor";
import { auditByActor } from "@/lib/audit/log";
import { prisma } from "@/lib/db/prisma";
import { INBOX_KIND_INFO, INBOX_KINDS, type InboxKind } from "./kinds";

/**
 * Which kinds of inbox item also reach a person by email or the team's Slack (issue 37 §4). The
 * inbox itself always holds every item; a row exists only for a kind the person changed, so a new
 * kind starts at its default (lib/inbox/kinds.ts says why each default is what it is).
 */

export interface ChannelChoice {
  email: boolean;
  slack: boolean;
}
export type InboxPreferences = Record<InboxKind, ChannelChoice>;

const defaults = (): InboxPreferences =>
  Object.fromEntries(INBOX_KINDS.map((kind) => [kind, { email: INBOX_KIND_INFO[kind].email, slack: INBOX_KIND_INFO[kind].slack }])) as InboxPreferences;

/** The actor's own choices, defaults where they chose nothing (a choice made in another team does not count). */
export async function inboxPreferences(actor: Pick<Actor, "userId" | "teamId">): Promise<InboxPreferences> {
  const rows = await prisma.inboxPreference.findMany({ where: { userId: actor.userId, teamId: actor.teamId }, select: { kind: true, email: true, slack: true } });
  const choices = defaults();
  for (const row of rows) if (row.kind in choices) choices[row.kind as InboxKind] = { email: row.email, slack: row.slack };
  return choices;
}

/** What each of these people chose for `kind` (their defaults where they chose nothing), in their team. */
export async function choicesFor(teamId: string, userIds: readonly string[], kind: InboxKind): Promise<Map<string, ChannelChoice>> {
  const rows = await prisma.inboxPreference.findMany({ where: { userId: { in: [...userIds] }, teamId, kind }, select: { userId: true, email: true, slack: true } });
  const chosen = new Map(rows.map((row) => [row.userId, { email: row.email, slack: row.slack }]));
  const fallback = { email: INBOX_KIND_INFO[kind].email, slack: INBOX_KIND_INFO[kind].slack };
  return new Map(userIds.map((id) => [id, chosen.get(id) ?? fallback]));
}

/** Saves the actor's choices for every kind (their own only: the rows are keyed by their user id). */
export async function saveInboxPreferences(actor: Actor, choices: InboxPreferences, context: { ip?: string } = {}): Promise<void> {
  await prisma.$transaction(async (tx) => {
    for (const kind of INBOX_KINDS) {
      const { email, slack } = choices[kind];
      await tx.inboxPreference.upsert({
        where: { userId_kind: { userId: actor.userId, kind } },
        create: { userId: actor.userId, teamId: actor.teamId, kind, email, slack },
        update: { teamId: actor.teamId, email, slack },
      });
    }
  });
  const byEmail = INBOX_KINDS.filter((kind) => choices[kind].email).length;
  const bySlack = INBOX_KINDS.filter((kind) => choices[kind].slack).length;
  await auditByActor(actor, { action: "inbox.preferences_changed", ip: context.ip, target: `user:${actor.userId}`, metadata: { byEmail, bySlack } });
}
