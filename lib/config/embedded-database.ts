import fs from "node:fs";
import path from "node:path";
import { toolingEnv, type EnvSource } from "./env-schema";

// Where `npm run dev` runs its embedded PostgreSQL when DATABASE_URL is unset. Read the settings
// after the env files are loaded (call the function), so that EMBEDDED_DATABASE_PORT /
// EMBEDDED_DATA_DIR set in .env.local count.

/** Where the first version kept PGlite's data: only noticed, never read or deleted. */
export const LEGACY_PGLITE_DATA_DIR = ".data/pglite";

export function embeddedDatabaseSettings(env: EnvSource = process.env): { port: number; dataDir: string } {
  const { EMBEDDED_DATABASE_PORT, EMBEDDED_DATA_DIR } = toolingEnv(env);
  return { port: EMBEDDED_DATABASE_PORT, dataDir: EMBEDDED_DATA_DIR };
}

export const EMBEDDED_HOST = "127.0.0.1";
// The server listens on loopback only; the password keeps other local users out of the dev data.
export const EMBEDDED_USER = "postgres";
export const EMBEDDED_PASSWORD = "embedded-dev-only";
export const EMBEDDED_DATABASE = "ems_portal";

export function embeddedUrl(port: number, database = EMBEDDED_DATABASE): string {
  return `postgresql://${EMBEDDED_USER}:${EMBEDDED_PASSWORD}@${EMBEDDED_HOST}:${port}/${database}?sslmode=disable`;
}

/** The pid and port of a live server on the directory (from PostgreSQL's postmaster.pid), or null. */
export function runningServer(dataDir: string): { pid: number; port: number } | null {
  let lines: string[];
  try {
    lines = fs.readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n");
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return null; // stale file of a dead server
  }
  return { pid, port };
}

/** The embedded database's URL for tools run by hand (prisma CLI): the running server's, else the configured port's. */
export function embeddedDatabaseUrl(env: EnvSource = process.env): string {
  const { port, dataDir } = embeddedDatabaseSettings(env);
  return embeddedUrl(runningServer(dataDir)?.port ?? port);
}
