// `npm run db:migrate:dev [-- --name add_something]`: `prisma migrate dev` for developers.
// With DATABASE_URL set it runs against that database; without it, against the embedded database
// (the one `npm run dev` is running, or one started just for this command). Prisma creates and
// drops its shadow database on the same server, or uses SHADOW_DATABASE_URL when set.
import { embeddedDatabaseSettings } from "../../lib/config/embedded-database";
import { loadEnvFiles } from "../../lib/config/load-env-files";
import { startEmbeddedPostgres } from "./embedded-postgres";
import { runPrisma } from "./prisma-cli";

loadEnvFiles();
const args = ["migrate", "dev", ...process.argv.slice(2)];

let exitCode: number;
if (process.env.DATABASE_URL) {
  exitCode = (await runPrisma(args)).code;
} else {
  const db = await startEmbeddedPostgres(embeddedDatabaseSettings());
  try {
    exitCode = (await runPrisma(args, { env: { DATABASE_URL: db.url } })).code;
  } finally {
    await db.stop();
  }
}
process.exit(exitCode);
