import type { Actor } from "@/lib/access/actor";
import type { Role } from "@/lib/generated/prisma/client";

/**
 * A person of a benchmark's team: a user and a membership with that role, as the Actor every data
 * function takes (signed in now, no two-factor), with the sandbox's key saved as their credential
 * (`check: false` skips the test call a form makes). Imported lazily: the benchmark opens its
 * environment (./database.ts) before the portal's modules read it.
 */
export async function benchMember(
  team: { id: string; name: string },
  person: { email: string; name: string; role: Role },
  credential: { baseUrl: string; consumerKey: string; consumerSecret: string },
  options: { check?: boolean } = {},
): Promise<Actor> {
  const { prisma } = await import("@/lib/db/prisma");
  const { saveCredential } = await import("@/lib/credentials/store");
  const user = await prisma.user.create({ data: { email: person.email, name: person.name, passwordHash: "bench" } });
  await prisma.membership.create({ data: { teamId: team.id, userId: user.id, role: person.role } });
  const now = new Date();
  const actor: Actor = {
    userId: user.id,
    email: user.email,
    name: user.name,
    sessionId: "bench",
    teamId: team.id,
    teamName: team.name,
    role: person.role,
    twoFactorEnabled: false,
    teamRequiresTwoFactor: false,
    reauthenticatedAt: now,
    passwordVerifiedAt: now,
  };
  await saveCredential(actor, credential, {}, options);
  return actor;
}
