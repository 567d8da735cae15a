// Helpers for database tests.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, inject } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { onDatabase } from "../../scripts/db/on-database";

/**
 * Opens `connections` pooled connections before a race: a new connection costs a password
 * handshake (tens of ms), long enough for the first of two "simultaneous" transactions to finish
 * before the second has a connection, which would hide the race the test is about.
 */
export async function warmPool(connections = 5): Promise<void> {
  await Promise.all(Array.from({ length: connections }, () => prisma.$executeRaw`SELECT pg_sleep(0.05)`));
}

/**
 * Gives the calling test file a database of its own on the project's server, migrated and empty,
 * and points the app's Prisma client at it for the whole file (dropped afterwards). For the few
 * files that act on whole tables (the first sign-up counts every team, key rotation rewrites every
 * stored secret), so that the project's other files can run beside them on the shared database.
 * Call it at the top level of the file.
 */
export function withOwnDatabase(): { url: () => string } {
  const sharedUrl = inject("databaseUrl");
  const name = `ems_own_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
  const ownUrl = urlOfDatabase(sharedUrl, name);

  beforeAll(async () => {
    await onDatabase(sharedUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
    const migrations = readdirSync("prisma/migrations", { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    await onDatabase(ownUrl, async (client) => {
      for (const migration of migrations) await client.query(readFileSync(path.join("prisma/migrations", migration, "migration.sql"), "utf8"));
    });
    await pointPrismaAt(ownUrl);
  });

  afterAll(async () => {
    await pointPrismaAt(sharedUrl);
    await onDatabase(sharedUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  });

  return { url: () => ownUrl };
}

function urlOfDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** The app's client (lib/db/prisma.ts) is made from DATABASE_URL on first use: drop it and move the variable. */
async function pointPrismaAt(url: string): Promise<void> {
  const holder = globalThis as unknown as { emsPrisma?: { $disconnect(): Promise<void> } };
  await holder.emsPrisma?.$disconnect();
  holder.emsPrisma = undefined;
  process.env.DATABASE_URL = url;
}
