// `npm run db:migrate`: applies the committed migrations (prisma/migrations) to DATABASE_URL with
// `prisma migrate deploy`. This is the one migration command for deployments: it never creates
// migrations, never resets, and needs no shadow database.
import { fileURLToPath } from "node:url";
import { loadEnvFiles } from "../../lib/config/load-env-files";
import { runPrisma } from "./prisma-cli";

/** Applies every pending migration to the database at `url`; throws with the CLI's output on failure. */
export async function migrateDeploy(url: string, options: { quiet?: boolean; cwd?: string } = {}): Promise<void> {
  const result = await runPrisma(["migrate", "deploy"], {
    env: { DATABASE_URL: url },
    stdio: options.quiet ? "pipe" : "inherit",
    cwd: options.cwd,
  });
  if (result.code !== 0) {
    throw new Error(`prisma migrate deploy failed (exit ${result.code})\n${result.stdout}${result.stderr}`.trim());
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  loadEnvFiles();
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error(
      "db:migrate applies migrations to DATABASE_URL, which is not set.\n" +
        "Set it to your PostgreSQL URL (e.g. DATABASE_URL=postgresql://user:pass@host:5432/db npm run db:migrate).\n" +
        "For the embedded development database, `npm run dev` applies migrations by itself.",
    );
    process.exit(1);
  }
  try {
    await migrateDeploy(url);
  } catch {
    process.exit(1); // the CLI has already printed why
  }
}
