// Smoke tests of what the app relies on, on both the embedded server and real PostgreSQL:
// interactive transactions (commit and rollback) and transaction-scoped advisory locks.
import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { createTestTeam, createTestUser, uniqueEmail } from "../setup/db";

describe("transactions", () => {
  it("commits the writes of an interactive transaction that holds an advisory lock", async () => {
    const email = uniqueEmail("tx");
    await prisma.$transaction(async (tx) => {
      // pg_advisory_xact_lock returns void, which $queryRaw cannot decode: use $executeRaw.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${email}))`;
      await tx.user.create({ data: { email, name: "Tx", passwordHash: "x" } });
    });
    expect(await prisma.user.count({ where: { email } })).toBe(1);
  });

  it("rolls back every write when the callback throws", async () => {
    const email = uniqueEmail("rollback");
    await expect(
      prisma.$transaction(async (tx) => {
        await tx.user.create({ data: { email, name: "Gone", passwordHash: "x" } });
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect(await prisma.user.count({ where: { email } })).toBe(0);
  });

  it("serialises concurrent read-modify-write cycles behind one advisory lock", async () => {
    const user = await createTestUser();
    const rounds = 10;
    await Promise.all(
      Array.from({ length: rounds }, () =>
        prisma.$transaction(
          async (tx) => {
            await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${user.id}))`;
            const current = await tx.user.findUniqueOrThrow({ where: { id: user.id } });
            await tx.user.update({ where: { id: user.id }, data: { sessionVersion: current.sessionVersion + 1 } });
          },
          { maxWait: 20_000, timeout: 20_000 },
        ),
      ),
    );
    const after = await prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(after.sessionVersion).toBe(rounds);
  });

  it("builds teams with an owner through the test helpers", async () => {
    const member = await createTestUser();
    const { team, owner } = await createTestTeam({ members: [{ user: member, role: "MEMBER" }] });
    const memberships = await prisma.membership.findMany({ where: { teamId: team.id }, orderBy: { role: "asc" } });
    expect(memberships.map((m) => [m.userId, m.role])).toEqual([
      [owner.id, "OWNER"],
      [member.id, "MEMBER"],
    ]);
  });
});
