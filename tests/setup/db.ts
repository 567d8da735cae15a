// Small builders for database tests: each test seeds its own rows, with unique emails, so tests
// never depend on each other or on the order they run in.
import { randomUUID } from "node:crypto";
import { prisma } from "@/lib/db/prisma";
import type { Role } from "@/lib/generated/prisma/client";

/** A unique, clearly fake address: `${prefix}-<random>@example.test`. */
export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${randomUUID().slice(0, 12)}@example.test`.toLowerCase();
}

export type TestUserInput = { email?: string; name?: string; passwordHash?: string };

/** A user with a placeholder password hash (tests that sign in should hash a real password). */
export async function createTestUser(input: TestUserInput = {}) {
  const email = input.email ?? uniqueEmail();
  return prisma.user.create({
    data: {
      email,
      name: input.name ?? `Test ${email.split("@")[0]}`,
      passwordHash: input.passwordHash ?? "test-only-not-a-real-hash",
    },
  });
}

/** A team with an OWNER (created unless given) and optional further members. */
export async function createTestTeam(
  input: { name?: string; owner?: { id: string }; members?: Array<{ user: { id: string }; role: Role }> } = {},
) {
  const owner = input.owner ?? (await createTestUser({ email: uniqueEmail("owner") }));
  const team = await prisma.team.create({
    data: {
      name: input.name ?? `Team ${randomUUID().slice(0, 8)}`,
      memberships: {
        create: [
          { userId: owner.id, role: "OWNER" },
          ...(input.members ?? []).map((member) => ({ userId: member.user.id, role: member.role })),
        ],
      },
    },
  });
  return { team, owner };
}

/**
 * Opens `connections` pooled connections before a race: a new connection costs a password
 * handshake (tens of ms), long enough for the first of two "simultaneous" transactions to finish
 * before the second has a connection, which would hide the race the test is about.
 */
export async function warmPool(connections = 5): Promise<void> {
  await Promise.all(Array.from({ length: connections }, () => prisma.$executeRaw`SELECT pg_sleep(0.05)`));
}
