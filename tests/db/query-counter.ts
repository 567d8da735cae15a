// Counts the SQL statements the app sends: the app's Prisma client (lib/db/prisma.ts keeps it in
// globalThis.emsPrisma) is swapped for one whose pg pool records every statement its connections
// send, so a test can assert how many database round trips a code path costs.
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";

type Holder = { emsPrisma?: PrismaClient };

export interface QueryCounter {
  /** Runs `fn` and returns what it returned, with every statement sent meanwhile (one per round trip). */
  record<T>(fn: () => Promise<T>): Promise<{ result: T; statements: string[] }>;
  /** Puts the app's usual client back (the next query creates it lazily). */
  uninstall(): Promise<void>;
}

export async function installQueryCounter(): Promise<QueryCounter> {
  const holder = globalThis as unknown as Holder;
  // The embedded test database admits one connection at a time: close the app's client first.
  await holder.emsPrisma?.$disconnect();
  let recording: string[] | null = null;
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_MAX || 10) });
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const text = typeof args[0] === "string" ? args[0] : (args[0] as { text?: string } | undefined)?.text;
      recording?.push(text ?? String(args[0]));
      return query(...args);
    };
  });
  const client = new PrismaClient({ adapter: new PrismaPg(pool) });
  holder.emsPrisma = client;
  return {
    async record(fn) {
      const statements: string[] = [];
      recording = statements;
      try {
        return { result: await fn(), statements };
      } finally {
        recording = null;
      }
    },
    async uninstall() {
      await client.$disconnect();
      await pool.end().catch(() => undefined);
      if (holder.emsPrisma === client) holder.emsPrisma = undefined;
    },
  };
}
