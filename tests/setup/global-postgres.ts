// Global setup of the db-postgres project (only when TEST_DATABASE_URL is set): creates a fresh,
// uniquely named database on that server, migrates it, and drops it afterwards. It refuses any
// server that is not on this machine: these tests write freely and drop what they create.
import { randomBytes } from "node:crypto";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { toolingEnv } from "../../lib/config/env-schema";
import { migrateDeploy } from "../../scripts/db/migrate";
import "./provided";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);

export function assertLoopback(url: string): URL {
  const parsed = new URL(url);
  const host = parsed.searchParams.get("host") ?? parsed.hostname;
  if (!LOOPBACK.has(host) && !host.startsWith("/")) {
    throw new Error(
      `TEST_DATABASE_URL points at ${host}, which is not this machine. The database tests create and ` +
        `drop databases, so they only run against a local server (localhost, 127.0.0.1, ::1 or a Unix socket).`,
    );
  }
  return parsed;
}

export default async function setup(project: TestProject) {
  const serverUrl = assertLoopback(toolingEnv().TEST_DATABASE_URL!);
  const name = `ems_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);

  const testUrl = new URL(serverUrl);
  testUrl.pathname = `/${name}`;
  const drop = async () => {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(async () => {
      // PostgreSQL before 13 has no FORCE: end the sessions first.
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [name]);
      await admin.query(`DROP DATABASE IF EXISTS "${name}"`);
    });
    await admin.end();
  };
  try {
    await migrateDeploy(testUrl.toString(), { quiet: true });
  } catch (error) {
    await drop();
    throw error;
  }
  project.provide("databaseUrl", testUrl.toString());
  // Several connections, as in production.
  project.provide("databasePoolMax", "5");
  return drop;
}
