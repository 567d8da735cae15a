/**
 * The database of a benchmark that needs one: DATABASE_URL when set (already migrated), else
 * TEST_DATABASE_URL's server when `testDatabase` allows it, else a throw-away embedded PostgreSQL,
 * migrated here. Sets DATABASE_URL; the returned `stop` ends what this started (nothing otherwise).
 */
export async function openBenchDatabase(options: { testDatabase?: boolean } = {}): Promise<{ url: string; stop: () => Promise<void> }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, stop: async () => undefined };
  if (options.testDatabase && process.env.TEST_DATABASE_URL) {
    process.env.DATABASE_URL = process.env.TEST_DATABASE_URL;
    return { url: process.env.TEST_DATABASE_URL, stop: async () => undefined };
  }
  const { EPHEMERAL, startEmbeddedPostgres } = await import("../scripts/db/embedded-postgres");
  const { migrateDeploy } = await import("../scripts/db/migrate");
  const db = await startEmbeddedPostgres({ dataDir: EPHEMERAL, port: 0 });
  await migrateDeploy(db.url, { quiet: true });
  process.env.DATABASE_URL = db.url;
  return { url: db.url, stop: db.stop };
}
