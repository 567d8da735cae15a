import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";

/**
 * The one Prisma client of this process. The embedded database (PGlite behind a socket) must be
 * used over a single connection (docs/ARCHITECTURE.md, "Rules every part follows"), so DATABASE_POOL_MAX=1 there.
 */
function createPrismaClient(): PrismaClient {
  const connectionString = process.env.DATABASE_URL;
  if (!connectionString) {
    throw new Error("DATABASE_URL is not set. `npm run dev` sets it to the embedded database; in production set it to your PostgreSQL URL.");
  }
  const max = Number(process.env.DATABASE_POOL_MAX || 10);
  const adapter = new PrismaPg({ connectionString, max });
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
