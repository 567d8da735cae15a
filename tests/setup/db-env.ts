// Runs in each worker before a database test file: points the app's Prisma client
// (lib/db/prisma.ts, created lazily from these variables) at the project's test database, and
// closes it after the file so the next file can have the embedded server's one connection.
import "./provided";
import { afterAll, inject } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");
process.env.DATABASE_POOL_MAX = inject("databasePoolMax");

afterAll(async () => {
  const holder = globalThis as unknown as { emsPrisma?: { $disconnect(): Promise<void> } };
  await holder.emsPrisma?.$disconnect();
  holder.emsPrisma = undefined;
});
