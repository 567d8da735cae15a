// `npm run db:embedded`: runs only the embedded PostgreSQL until Ctrl+C, e.g. to inspect it with
// psql, or to try a production build locally: `npm run build`, then in another terminal
// `DATABASE_URL=<printed URL> npm run db:migrate && DATABASE_URL=<printed URL> npm start`.
import { embeddedDatabaseSettings } from "../../lib/config/embedded-database";
import { loadEnvFiles } from "../../lib/config/load-env-files";
import { noticeLegacyPglite } from "./legacy-pglite";
import { EPHEMERAL, startEmbeddedPostgres } from "./embedded-postgres";
import { migrateDeploy } from "./migrate";

loadEnvFiles();
// --ephemeral: a throw-away directory and a free port (benchmarks), deleted on stop.
const ephemeral = process.argv.includes("--ephemeral");
const settings = embeddedDatabaseSettings();
const { dataDir, port } = ephemeral ? { dataDir: EPHEMERAL, port: 0 } : settings;
noticeLegacyPglite();
const started = Date.now();
const db = await startEmbeddedPostgres({ dataDir, port }).catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
if (!db.owned) {
  console.log(`The embedded PostgreSQL in ${db.dataDir} is already running (another \`npm run dev\` or \`npm run db:embedded\`):`);
  console.log(`  DATABASE_URL=${db.url}`);
  process.exit(0);
}
await migrateDeploy(db.url, { quiet: true });
console.log(`Embedded PostgreSQL ready and migrated in ${Date.now() - started} ms, data in ${db.dataDir}`);
console.log(`  DATABASE_URL=${db.url}`);
console.log("Ctrl+C to stop.");

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.once(signal, () => {
    void db.stop().then(() => process.exit(0));
  });
}
