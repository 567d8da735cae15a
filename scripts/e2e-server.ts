/**
 * The portal as the end-to-end tests see it: the standalone production server a Node host runs
 * (`node .next/standalone/server.js`, from `npm run build`) on a fresh throw-away embedded
 * PostgreSQL, with the embedded sandbox on and test secrets; beside it, a standalone sandbox that
 * only the fault specs use and one that only the specs that change the EMS write to. Started by
 * Playwright's webServer.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { startSandboxServer } from "../lib/sandbox/testing";
import { EPHEMERAL, startEmbeddedPostgres } from "./db/embedded-postgres";
import { migrateDeploy } from "./db/migrate";
import {
  E2E_BASE_URL,
  E2E_DATABASE_URL_FILE,
  E2E_FAULT_SANDBOX_PORT,
  E2E_PLANS_SANDBOX_PORT,
  E2E_PORT,
  E2E_SANDBOX_ADMIN_SECRET,
  PLANS_SANDBOX_ACCOUNTS,
} from "../e2e/helpers/config";
import { testServerEnv } from "../e2e/helpers/server-env";

const SERVER = ".next/standalone/server.js";

async function main() {
  if (!fs.existsSync(SERVER)) {
    console.error(`${SERVER} is missing: run \`npm run build\` first.`);
    process.exit(1);
  }
  const db = await startEmbeddedPostgres({ dataDir: EPHEMERAL, port: 0 });
  const faultSandbox = await startSandboxServer({ port: E2E_FAULT_SANDBOX_PORT, adminSecret: E2E_SANDBOX_ADMIN_SECRET });
  const plansSandbox = await startSandboxServer({ port: E2E_PLANS_SANDBOX_PORT, adminSecret: E2E_SANDBOX_ADMIN_SECRET, accounts: PLANS_SANDBOX_ACCOUNTS });
  const env = testServerEnv({ port: E2E_PORT, databaseUrl: db.url, baseUrl: E2E_BASE_URL });

  // Asynchronously: the embedded database lives in this process and must keep answering meanwhile.
  await migrateDeploy(db.url, { quiet: true });
  // For specs that age their own rows (the database is this run's alone, on a loopback port).
  fs.mkdirSync(path.dirname(E2E_DATABASE_URL_FILE), { recursive: true });
  fs.writeFileSync(E2E_DATABASE_URL_FILE, db.url);

  const server = spawn(process.execPath, [path.resolve(SERVER)], { env, stdio: "inherit" });
  const stopAll = async () => {
    await faultSandbox.close();
    await plansSandbox.close();
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
