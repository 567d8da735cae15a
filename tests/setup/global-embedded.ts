// Global setup of the db-embedded project: a fresh in-memory embedded PostgreSQL (PGlite), migrated
// with `prisma migrate deploy` through the schema-engine bridge, for all of the project's files.
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../../scripts/db/embedded-postgres";
import { migrateDeploy } from "../../scripts/db/migrate";
import "./provided";

export default async function setup(project: TestProject) {
  const db = await startEmbeddedPostgres({ dataDir: "memory://", port: 0 });
  try {
    await migrateDeploy(db.url, { quiet: true });
  } catch (error) {
    await db.stop();
    throw error;
  }
  project.provide("databaseUrl", db.url);
  project.provide("shadowDatabaseUrl", db.shadowUrl);
  project.provide("databasePoolMax", "1");
  project.provide("databaseKind", "embedded");
  return () => db.stop();
}
