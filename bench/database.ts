import { randomBytes } from "node:crypto";
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

/**
 * What a benchmark of the portal's own modules needs first: the env files, its database
 * (`openBenchDatabase`), and generated secrets where none are set (the key ring, next-auth's).
 */
export async function openBenchEnvironment(options: { testDatabase?: boolean } = {}): Promise<{ url: string; stop: () => Promise<void> }> {
  const { loadEnvFiles } = await import("@/lib/config/load-env-files");
  loadEnvFiles();
  const database = await openBenchDatabase(options);
  process.env.CREDENTIAL_ENCRYPTION_KEYS ||= `bench:${randomBytes(32).toString("base64")}`;
  process.env.NEXTAUTH_SECRET ||= randomBytes(24).toString("base64url");
  return database;
}
