import { getLogs } from "@prisma/debug";
import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";

/**
 * What a statement sent is not kept after it (lib/db/prisma.ts): @prisma/debug keeps the arguments
 * of its last 100 calls, debugging on or off, and adapter-pg calls it with each statement and its
 * parameters, so the last 100 statements' values (ciphertexts of up to 2 MB) stayed in the heap.
 */
describe("the database client", () => {
  it("keeps no statement's parameters once it is sent", async () => {
    const marker = `kept-parameter-${"x".repeat(1_000)}-${Date.now()}`;
    const [row] = await prisma.$queryRaw<{ value: string }[]>`SELECT ${marker}::text AS "value"`;
    expect(row.value).toBe(marker);
    await prisma.$queryRaw`SELECT 1`;
    expect(getLogs(1_000_000)).not.toContain(marker);
  });
});
