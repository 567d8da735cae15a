import "server-only";
import { prisma, type TransactionClient } from "@/lib/db/prisma";

/** The team name a person gets when they start one of their own. */
export function defaultTeamName(name: string): string {
  return `${name.trim() || "My"}'s team`;
}

/**
 * Someone who signs up without an invitation, or who left their team, starts a team of their own
 * and owns it: a signed-in person always has exactly one team.
 */
export async function ensureTeamFor(user: { id: string; name: string }, tx?: TransactionClient): Promise<{ teamId: string }> {
  const db = tx ?? prisma;
  const existing = await db.membership.findUnique({ where: { userId: user.id } });
  if (existing) return { teamId: existing.teamId };
  const team = await db.team.create({
    data: { name: defaultTeamName(user.name), memberships: { create: { userId: user.id, role: "OWNER" } } },
  });
  return { teamId: team.id };
}
