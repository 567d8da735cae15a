/**
 * The portal as the end-to-end tests see it: the standalone production server a Node host runs
 * (`node .next/standalone/server.js`, from `npm run build`) on a fresh throw-away embedded
 * PostgreSQL, with the embedded sandbox on and test secrets; beside it, a standalone sandbox that
 * only the fault specs use. Started by Playwright's webServer.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { startSandboxServer } from "../lib/sandbox/testing";
import { EPHEMERAL, startEmbeddedPostgres } from "./db/embedded-postgres";
import { migrateDeploy } from "./db/migrate";
import { E2E_BASE_URL, E2E_DATABASE_URL_FILE, E2E_FAULT_SANDBOX_PORT, E2E_FAULT_SANDBOX_URL, E2E_PORT, E2E_SANDBOX_ADMIN_SECRET } from "../e2e/helpers/config";

const SERVER = ".next/standalone/server.js";

async function main() {
  if (!fs.existsSync(SERVER)) {
    console.error(`${SERVER} is missing: run \`npm run build\` first.`);
    process.exit(1);
  }
  const db = await startEmbeddedPostgres({ dataDir: EPHEMERAL, port: 0 });
  const faultSandbox = await startSandboxServer({ port: E2E_FAULT_SANDBOX_PORT, adminSecret: E2E_SANDBOX_ADMIN_SECRET });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(E2E_PORT),
    // The standalone server binds HOSTNAME, which containers set to their own name.
    HOSTNAME: "127.0.0.1",
    DATABASE_URL: db.url,
    NEXTAUTH_URL: E2E_BASE_URL,
    NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
    CREDENTIAL_ENCRYPTION_KEYS: `e2e:${randomBytes(32).toString("base64")}`,
    EMS_FINGERPRINT_SECRET: randomBytes(32).toString("base64url"),
    SANDBOX_ENABLED: "true",
    SANDBOX_SIGNING_SECRET: randomBytes(32).toString("base64url"),
    SANDBOX_ADMIN_SECRET: E2E_SANDBOX_ADMIN_SECRET,
    // The fault specs' own sandbox is a private origin: listed on purpose, as an operator would.
    EMS_ALLOW_PRIVATE_ORIGINS: E2E_FAULT_SANDBOX_URL,
    // Every browser of the suite signs in from 127.0.0.1: the per-address limit is covered by the
    // throttle's database test; here it would throttle unrelated tests.
    AUTH_MAX_FAILURES_PER_ADDRESS: "100000",
    SIGNUP_MAX_PER_ADDRESS: "100000",
    // Most specs sign up people of their own, without an invitation.
    SIGNUP_MODE: "open",
    // The lockout spec plays a second client through X-Forwarded-For, as if behind one proxy.
    TRUSTED_PROXY_COUNT: "1",
    // No scheduled jobs in the end-to-end server: the job engine has tests of its own
    // (tests/jobs), and the retention job would only delete what specs seeded long ago.
    JOBS_ENABLED: "false",
    // Warnings and errors only: a line per EMS call would bury the test report.
    LOG_LEVEL: process.env.LOG_LEVEL || "warn",
  };

  // Asynchronously: the embedded database lives in this process and must keep answering meanwhile.
  await migrateDeploy(db.url, { quiet: true });
  // For specs that age their own rows (the database is this run's alone, on a loopback port).
  fs.mkdirSync(path.dirname(E2E_DATABASE_URL_FILE), { recursive: true });
  fs.writeFileSync(E2E_DATABASE_URL_FILE, db.url);

  const server = spawn(process.execPath, [path.resolve(SERVER)], { env, stdio: "inherit" });
  const stopAll = async () => {
    await faultSandbox.close();
    await db.stop();
  };
  const stop = async () => {
    server.kill("SIGTERM");
    await stopAll();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  server.on("exit", async (code) => {
    await stopAll();
    process.exit(code ?? 1);
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
