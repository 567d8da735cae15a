// `npm run dev`: everything a developer needs, from a fresh clone, in one command.
//  1. Generates the development secrets that are missing into .env.local (git-ignored).
//  2. Without DATABASE_URL, starts the embedded PostgreSQL (a real PostgreSQL server from npm, data
//     in .data/postgres, kept across restarts) and points the app at it.
//  3. Generates the Prisma client if it is missing, and applies pending migrations.
//  4. Runs `next dev` (PORT, default 3000; SANDBOX_DRIFT_SECONDS, default 120 here only; extra
//     arguments are passed on), and on exit or Ctrl+C stops it and shuts the database down cleanly.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { parse } from "dotenv";
import pg from "pg";
import { loadEnvFiles } from "../lib/config/load-env-files";
import { embeddedDatabaseSettings } from "../lib/config/embedded-database";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "./db/embedded-postgres";
import { ServerUserAccessError } from "./db/server-user-access";
import { noticeLegacyPglite } from "./db/legacy-pglite";
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

function startNext(env: NodeJS.ProcessEnv) {
  env.PORT ||= "3000";
  env.NEXT_TELEMETRY_DISABLED ||= "1";
  // The demo account changes now and then, so change history has something to show; 0 turns it off.
  env.SANDBOX_DRIFT_SECONDS ||= "120";
  log(`Starting Next.js on http://localhost:${env.PORT} (${elapsed()} so far).`);
  const child = spawn(process.execPath, [require.resolve("next/dist/bin/next"), "dev", ...process.argv.slice(2)], {
    env,
    stdio: "inherit",
  });
  const exited = new Promise<number>((resolve) => {
    child.on("exit", (exitCode, signal) => resolve(exitCode ?? (signal === "SIGINT" || signal === "SIGTERM" ? 0 : 1)));
    child.on("error", (error) => {
      console.error(`[dev] Could not start Next.js: ${error.message}`);
      resolve(1);
    });
  });
  nextChild = child;
  return { exited };
}

// Ctrl+C goes to Next.js once it runs (it exits, then the database stops); before that, startup
// finishes what it is doing (an interrupted first initdb would leave a broken data directory) and stops.
let nextChild: ReturnType<typeof spawn> | null = null;
let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    interrupted = true;
    if (nextChild && nextChild.exitCode === null) nextChild.kill(signal);
  });
}

async function main(): Promise<number> {
  loadEnvFiles();
  ensureDevSecrets();
  loadEnvFiles(); // pick up what was just generated

  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  const generating = fs.existsSync("lib/generated/prisma/client.ts")
    ? Promise.resolve()
    : (async () => {
        log("Generating the Prisma client (lib/generated is missing)…");
        const result = await runPrisma(["generate"], { stdio: "pipe" });
        if (result.code !== 0) throw new Error(`prisma generate failed:\n${result.stdout}${result.stderr}`);
      })();

  let db: EmbeddedPostgres | null = null;
  if (!process.env.DATABASE_URL) {
    noticeLegacyPglite();
    // Read only now, so that EMBEDDED_DATABASE_PORT / EMBEDDED_DATA_DIR from .env.local count.
    const settings = embeddedDatabaseSettings();
    try {
      db = await startEmbeddedPostgres(settings);
    } catch (error) {
      console.error(`[dev] ${(error as Error).message}`);
      // The folders are the problem, not the port: the message above says what to do.
      if (!(error instanceof ServerUserAccessError)) console.error(`[dev] If port ${settings.port} is taken, set EMBEDDED_DATABASE_PORT to another port.`);
      return 1;
    }
    childEnv.DATABASE_URL = db.url;
    log(`Embedded PostgreSQL ${db.owned ? "ready" : "already running, reused"} (${settings.dataDir}) at ${db.url} after ${elapsed()}.`);
  } else {
    log("Using DATABASE_URL.");
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

  if (interrupted) {
    await db?.stop();
    return 130;
  }
  const code = await startNext(childEnv).exited;
  if (db) {
    await db.stop();
    log("Embedded PostgreSQL stopped.");
  }
  return code;
}

process.exit(await main());
