// `npm run db:embedded`: runs only the embedded PostgreSQL (PGlite) until Ctrl+C, e.g. to inspect it
// with psql, or to share it with commands started by hand (set DATABASE_URL to the printed URL).
import { loadEnvFiles } from "../../lib/config/load-env-files";
import { startEmbeddedPostgres } from "./embedded-postgres";

loadEnvFiles();
// Read after the env files, so that EMBEDDED_DATABASE_PORT / EMBEDDED_DATA_DIR there count.
const { EMBEDDED_DATA_DIR, EMBEDDED_DATABASE_PORT } = await import("../../lib/config/embedded-database");
const started = Date.now();
const db = await startEmbeddedPostgres({ dataDir: EMBEDDED_DATA_DIR, port: EMBEDDED_DATABASE_PORT }).catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
console.log(`Embedded PostgreSQL (PGlite) ready in ${Date.now() - started} ms, data in ${EMBEDDED_DATA_DIR}`);
console.log(`  DATABASE_URL=${db.url}`);
console.log(`  SHADOW_DATABASE_URL=${db.shadowUrl}`);
console.log("One connection at a time (use DATABASE_POOL_MAX=1). Ctrl+C to stop.");

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.once(signal, () => {
    void db.stop().then(() => process.exit(0));
  });
}
