import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { databaseEnv } from "@/lib/env";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { setPoolStatsSource } from "@/lib/telemetry/metrics";

/** The one Prisma client of this process, with a pool of DATABASE_POOL_MAX connections (default 10). */
function createPrismaClient(): PrismaClient {
  // `npm run dev` sets both to the embedded database; in production DATABASE_URL is required.
  const { DATABASE_URL, DATABASE_POOL_MAX } = databaseEnv();
  // The pool is made here rather than by the adapter so that /api/metrics can read its figures.
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: DATABASE_POOL_MAX });
  setPoolStatsSource(() => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }));
  const adapter = new PrismaPg(pool, { disposeExternalPool: true });
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
