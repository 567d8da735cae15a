import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { databaseEnv } from "@/lib/env";
import { PrismaClient } from "@/lib/generated/prisma/client";

/** The one Prisma client of this process, with a pool of DATABASE_POOL_MAX connections (default 10). */
function createPrismaClient(): PrismaClient {
  // `npm run dev` sets both to the embedded database; in production DATABASE_URL is required.
  const { DATABASE_URL, DATABASE_POOL_MAX } = databaseEnv();
  const adapter = new PrismaPg({ connectionString: DATABASE_URL, max: DATABASE_POOL_MAX });
  return new PrismaClient({ adapter });
}

const globalForPrisma = globalThis as unknown as { emsPrisma?: PrismaClient };

/** Lazily created so that importing this module never needs a database (build, type-check). */
export function getPrisma(): PrismaClient {
  if (!globalForPrisma.emsPrisma) globalForPrisma.emsPrisma = createPrismaClient();
  return globalForPrisma.emsPrisma;
}

export const prisma: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, property) {
    const client = getPrisma() as unknown as Record<string | symbol, unknown>;
    const value = client[property];
    return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(client) : value;
  },
});

export type { PrismaClient };
export type TransactionClient = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
