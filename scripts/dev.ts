// `npm run dev`: everything a developer needs, from a fresh clone, in one command.
//  1. Generates the development secrets that are missing into .env.local (git-ignored).
//  2. Without DATABASE_URL, starts the embedded PostgreSQL (PGlite, data in .data/pglite, kept
//     across restarts) and points the app at it with a pool of one connection.
//  3. Generates the Prisma client if it is missing, and applies pending migrations.
//  4. Runs `next dev` (PORT, default 3000; extra arguments are passed on), and on exit or Ctrl+C
//     stops it and shuts the database down cleanly.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { parse } from "dotenv";
import pg from "pg";
import { EMBEDDED_DATA_DIR, EMBEDDED_DATABASE_PORT } from "../lib/config/embedded-database";
import { loadEnvFiles } from "../lib/config/load-env-files";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "./db/embedded-postgres";
import { migrateDeploy } from "./db/migrate";
import { runPrisma } from "./db/prisma-cli";

const startedAt = Date.now();
const require = createRequire(import.meta.url);
const log = (message: string) => console.log(`[dev] ${message}`);
const elapsed = () => `${((Date.now() - startedAt) / 1000).toFixed(1)} s`;

// --- 1. Secrets -------------------------------------------------------------------------------
const secretMakers: Record<string, () => string> = {
  NEXTAUTH_SECRET: () => randomBytes(32).toString("base64url"),
  CREDENTIAL_ENCRYPTION_KEYS: () => `k1:${randomBytes(32).toString("base64")}`,
  SANDBOX_SIGNING_SECRET: () => randomBytes(32).toString("base64url"),
  SANDBOX_ADMIN_SECRET: () => randomBytes(32).toString("base64url"),
  EMS_FINGERPRINT_SECRET: () => randomBytes(32).toString("base64url"),
};

function ensureDevSecrets(file = ".env.local"): void {
  const existing = fs.existsSync(file) ? parse(fs.readFileSync(file)) : {};
  const dotEnv = fs.existsSync(".env") ? parse(fs.readFileSync(".env")) : {};
  const missing = Object.keys(secretMakers).filter((name) => !existing[name] && !dotEnv[name] && !process.env[name]);
  if (missing.length === 0) return;
  const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  const lines = missing.map((name) => `${name}=${secretMakers[name]!()}`);
  const header = current ? "" : "# Development settings, made by `npm run dev`. Git-ignored; never use these values in production.\n";
  const separator = current && !current.endsWith("\n") ? "\n" : "";
  fs.writeFileSync(file, `${current}${separator}${header}${lines.join("\n")}\n`, { mode: 0o600 });
  log(`Generated ${missing.join(", ")} into ${file} (git-ignored).`);
}

// --- 3. Migrations, skipped when the database already has every one ----------------------------
function migrationNames(): string[] {
  const dir = "prisma/migrations";
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name);
}

async function pendingMigrations(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const { rows } = await client.query<{ migration_name: string }>(
      "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL",
    );
    const applied = new Set(rows.map((row) => row.migration_name));
    return migrationNames().some((name) => !applied.has(name));
  } catch {
    return true; // no migrations table yet, or anything unexpected: let Prisma decide
  } finally {
    await client.end().catch(() => {});
  }
}

async function main(): Promise<number> {
  loadEnvFiles();
  ensureDevSecrets();
  loadEnvFiles(); // pick up what was just generated

  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  let db: EmbeddedPostgres | null = null;

  const generating = fs.existsSync("lib/generated/prisma/client.ts")
    ? Promise.resolve()
    : (async () => {
        log("Generating the Prisma client (lib/generated is missing)…");
        const result = await runPrisma(["generate"], { stdio: "pipe" });
        if (result.code !== 0) throw new Error(`prisma generate failed:\n${result.stdout}${result.stderr}`);
      })();

  if (process.env.DATABASE_URL) {
    log("Using DATABASE_URL.");
  } else {
    try {
      db = await startEmbeddedPostgres({ dataDir: EMBEDDED_DATA_DIR, port: EMBEDDED_DATABASE_PORT });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EADDRINUSE") {
        console.error(
          `[dev] Port ${EMBEDDED_DATABASE_PORT} for the embedded database is taken. Free it, or set EMBEDDED_DATABASE_PORT to another port.`,
        );
      } else {
        console.error(`[dev] ${(error as Error).message}`);
      }
      return 1;
    }
    childEnv.DATABASE_URL = db.url;
    childEnv.DATABASE_POOL_MAX = "1"; // the embedded server takes one connection at a time
    log(`Embedded PostgreSQL ready (${EMBEDDED_DATA_DIR}) at ${db.url} after ${elapsed()}.`);
  }

  try {
    await generating;
    const url = childEnv.DATABASE_URL!;
    if (await pendingMigrations(url)) {
      log("Applying migrations…");
      await migrateDeploy(url);
    }
  } catch (error) {
    console.error(`[dev] ${(error as Error).message}`);
    await db?.stop();
    return 1;
  }

  // --- 4. next dev ----------------------------------------------------------------------------
  childEnv.PORT ||= "3000";
  childEnv.NEXT_TELEMETRY_DISABLED ||= "1";
  log(`Starting Next.js on http://localhost:${childEnv.PORT} (${elapsed()} so far).`);
  const next = spawn(process.execPath, [require.resolve("next/dist/bin/next"), "dev", ...process.argv.slice(2)], {
    env: childEnv,
    stdio: "inherit",
  });

  const forward = (signal: NodeJS.Signals) => {
    if (next.exitCode === null) next.kill(signal);
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => forward(signal));

  const code = await new Promise<number>((resolve) => {
    next.on("exit", (exitCode, signal) => resolve(exitCode ?? (signal === "SIGINT" || signal === "SIGTERM" ? 0 : 1)));
    next.on("error", (error) => {
      console.error(`[dev] Could not start Next.js: ${error.message}`);
      resolve(1);
    });
  });
  if (db) {
    await db.stop();
    log("Embedded PostgreSQL stopped.");
  }
  return code;
}

process.exit(await main());
