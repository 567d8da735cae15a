// Runs in each worker before a database test file: points the app's Prisma client
// (lib/db/prisma.ts, created lazily from these variables) at the project's test database, and
// closes it after the file. Files run side by side on one database: each file's connections carry
// an application_name of their own, so that a test looking at pg_stat_activity can tell its own
// connections from those of the files beside it (current_setting('application_name')).
import { randomBytes } from "node:crypto";
import "./provided";
import { afterAll, inject } from "vitest";

const url = new URL(inject("databaseUrl"));
url.searchParams.set("application_name", `vitest-${randomBytes(4).toString("hex")}`);
process.env.DATABASE_URL = url.toString();
process.env.DATABASE_POOL_MAX = inject("databasePoolMax");

afterAll(async () => {
  const holder = globalThis as unknown as { emsPrisma?: { $disconnect(): Promise<void> } };
  await holder.emsPrisma?.$disconnect();
  holder.emsPrisma = undefined;
});
