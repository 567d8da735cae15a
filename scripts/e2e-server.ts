/**
 * The portal as the end-to-end tests see it: a production build (`next start`) on a fresh
 * throw-away embedded PostgreSQL, with the sandbox on and test secrets. Started by Playwright's
 * webServer; run `npm run build` first.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { EPHEMERAL, startEmbeddedPostgres } from "./db/embedded-postgres";
import { migrateDeploy } from "./db/migrate";
import { E2E_PORT, E2E_SANDBOX_ADMIN_SECRET } from "../e2e/helpers/config";

async function main() {
  const db = await startEmbeddedPostgres({ dataDir: EPHEMERAL, port: 0 });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: db.url,
    NEXTAUTH_URL: `http://localhost:${E2E_PORT}`,
    NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
    CREDENTIAL_ENCRYPTION_KEYS: `e2e:${randomBytes(32).toString("base64")}`,
    EMS_FINGERPRINT_SECRET: randomBytes(32).toString("base64url"),
    SANDBOX_ENABLED: "true",
    SANDBOX_SIGNING_SECRET: randomBytes(32).toString("base64url"),
    SANDBOX_ADMIN_SECRET: E2E_SANDBOX_ADMIN_SECRET,
    // Every browser of the suite signs in from 127.0.0.1: the per-address limit is covered by the
    // throttle's database test; here it would throttle unrelated tests.
    AUTH_MAX_FAILURES_PER_ADDRESS: "100000",
  };

  // Asynchronously: the embedded database lives in this process and must keep answering meanwhile.
  await migrateDeploy(db.url, { quiet: true });

  const next = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(E2E_PORT)], { env, stdio: "inherit" });
  const stop = async () => {
    next.kill("SIGTERM");
    await db.stop();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  next.on("exit", async (code) => {
    await db.stop();
    process.exit(code ?? 1);
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
