// `npm run db:migrate:dev [-- --name add_something]`: `prisma migrate dev` for developers.
// With DATABASE_URL set it runs against that database (a shadow database is created and dropped
// on the same server, or SHADOW_DATABASE_URL is used). Without it, against the embedded database:
// the one `npm run dev` is serving if it runs, else one started just for this command.
import { loadEnvFiles } from "../../lib/config/load-env-files";
import { readEmbeddedLock, startEmbeddedPostgres } from "./embedded-postgres";
import { runPrisma } from "./prisma-cli";

loadEnvFiles();
// Read after the env files, so that EMBEDDED_DATABASE_PORT / EMBEDDED_DATA_DIR there count.
const { EMBEDDED_DATA_DIR, EMBEDDED_DATABASE_PORT } = await import("../../lib/config/embedded-database");
const args = ["migrate", "dev", ...process.argv.slice(2)];

let exitCode: number;
if (process.env.DATABASE_URL) {
  exitCode = (await runPrisma(args)).code;
} else {
  let running = readEmbeddedLock(EMBEDDED_DATA_DIR);
  // The owner writes its URLs once its server listens; give a starting `npm run dev` time for that.
  for (let waited = 0; running && !running.url && waited < 60_000; waited += 250) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    running = readEmbeddedLock(EMBEDDED_DATA_DIR);
  }
  if (running?.url) {
    console.log(`Using the embedded database of process ${running.pid} (${running.url}).`);
    console.log("It serves one connection at a time: this may wait until the dev server's connection is idle.");
    exitCode = (await runPrisma(args, { env: { DATABASE_URL: running.url, SHADOW_DATABASE_URL: running.shadowUrl } })).code;
  } else {
    const db = await startEmbeddedPostgres({ dataDir: EMBEDDED_DATA_DIR, port: EMBEDDED_DATABASE_PORT });
    try {
      exitCode = (await runPrisma(args, { env: { DATABASE_URL: db.url, SHADOW_DATABASE_URL: db.shadowUrl } })).code;
    } finally {
      await db.stop();
    }
  }
}
process.exit(exitCode);
