import { createHash, randomUUID } from "node:crypto";
import type { Actor } from "@/lib/access/actor";
import { prisma } from "@/lib/db/prisma";
import type { TeamRole } from "@/lib/access/roles";

// The data functions encrypt and fingerprint: give the process a key ring and a server secret
// when the test environment did not (both are read lazily). Fixed test-only values, so that every
// test file (each may run in its own process) reads the rows the others wrote to the shared database.
const testOnly = (label: string) => createHash("sha256").update(`ems-portal tests only: ${label}`).digest();
process.env.CREDENTIAL_ENCRYPTION_KEYS ||= `test:${testOnly("credential key").toString("base64")}`;
process.env.NEXTAUTH_SECRET ||= testOnly("nextauth secret").toString("base64url");

export const unique = () => randomUUID().slice(0, 8);

/** A real user row and the Actor the session layer would build for them. */
export async function createUser(name = "Person"): Promise<{ id: string; email: string; name: string }> {
  const email = `${name.toLowerCase().replace(/\W+/g, "-")}-${unique()}@example.test`;
  return prisma.user.create({ data: { name, email, passwordHash: "not-a-real-hash" }, select: { id: true, email: true, name: true } });
}

export async function actorFor(userId: string): Promise<Actor> {
  const user = await prisma.user.findUniqueOrThrow({ where: { id: userId }, include: { membership: { include: { team: true } } } });
  if (!user.membership) throw new Error(`user ${userId} has no team`);
  return {
    userId: user.id,
    email: user.email,
    name: user.name,
    sessionId: `test-session-${unique()}`,
    teamId: user.membership.teamId,
    teamName: user.membership.team.name,
    role: user.membership.role,
    twoFactorEnabled: false,
    teamRequiresTwoFactor: user.membership.team.requireTwoFactor,
    reauthenticatedAt: new Date(),
    passwordVerifiedAt: new Date(),
  };
}

/** A team with an owner; returns the owner's actor. */
export async function createTeam(name = `Team ${unique()}`): Promise<Actor> {
  const owner = await createUser("Owner");
  await prisma.team.create({ data: { name, memberships: { create: { userId: owner.id, role: "OWNER" } } } });
  return actorFor(owner.id);
}

export async function addMember(team: Pick<Actor, "teamId">, role: TeamRole, name = role.toLowerCase()): Promise<Actor> {
  const user = await createUser(name);
  await prisma.membership.create({ data: { teamId: team.teamId, userId: user.id, role } });
  return actorFor(user.id);
}

export async function membershipIdOf(actor: Actor): Promise<string> {
  return (await prisma.membership.findUniqueOrThrow({ where: { userId: actor.userId } })).id;
}
