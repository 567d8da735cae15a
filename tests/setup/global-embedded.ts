// Global setup of the db-embedded project: a fresh embedded PostgreSQL on a throw-away data
// directory, migrated with `prisma migrate deploy` through the schema-engine bridge, for all of the
// project's files.
import type { TestProject } from "vitest/node";
import { EPHEMERAL, startEmbeddedPostgres } from "../../scripts/db/embedded-postgres";
import { migrateDeploy } from "../../scripts/db/migrate";
import "./provided";

export default async function setup(project: TestProject) {
  const db = await startEmbeddedPostgres({ dataDir: EPHEMERAL, port: 0 });
  try {
    await migrateDeploy(db.url, { quiet: true });
  } catch (error) {
    await db.stop();
    throw error;
  }
  project.provide("databaseUrl", db.url);
  project.provide("databasePoolMax", "5");
  return () => db.stop();
}
