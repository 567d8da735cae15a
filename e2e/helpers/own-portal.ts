import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { EPHEMERAL, startEmbeddedPostgres } from "../../scripts/db/embedded-postgres";
import { migrateDeploy } from "../../scripts/db/migrate";

/**
 * A second production server (`.next/standalone/server.js`, as scripts/e2e-server.ts runs the
 * suite's) on a throw-away embedded PostgreSQL of its own, for a spec that needs an environment of
 * its own (e2e/telemetry.spec.ts: tracing on, METRICS_TOKEN set) and traffic nobody else adds to.
 */
export interface OwnPortal {
  baseUrl: string;
  /** Every secret it was started with, for scans. */
  secrets: string[];
  /** The sandbox admin endpoint's secret (createAdminClient). */
  adminSecret: string;
  stop(): Promise<void>;
}

export async function startOwnPortal({ port, env }: { port: number; env: Record<string, string> }): Promise<OwnPortal> {
  const db = await startEmbeddedPostgres({ dataDir: EPHEMERAL, port: 0 });
  await migrateDeploy(db.url, { quiet: true });
  const baseUrl = `http://127.0.0.1:${port}`;
  const secrets = {
    NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
    CREDENTIAL_ENCRYPTION_KEYS: `own:${randomBytes(32).toString("base64")}`,
    EMS_FINGERPRINT_SECRET: randomBytes(32).toString("base64url"),
    SANDBOX_SIGNING_SECRET: randomBytes(32).toString("base64url"),
    SANDBOX_ADMIN_SECRET: randomBytes(24).toString("base64url"),
  };
  const server: ChildProcess = spawn(process.execPath, [path.resolve(".next/standalone/server.js")], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      DATABASE_URL: db.url,
      NEXTAUTH_URL: baseUrl,
      SANDBOX_ENABLED: "true",
      SIGNUP_MODE: "open",
      JOBS_ENABLED: "false",
      LOG_LEVEL: "warn",
      ...secrets,
      ...env,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  const stop = async () => {
    if (server.exitCode === null) server.kill("SIGTERM");
    await exited;
    await db.stop();
  };
  const until = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) {
      await db.stop();
      throw new Error(`the portal server exited with code ${server.exitCode} before answering`);
    }
    const healthy = await fetch(`${baseUrl}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > until) {
      await stop();
      throw new Error(`${baseUrl}/api/health did not answer 200 within 60 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { baseUrl, adminSecret: secrets.SANDBOX_ADMIN_SECRET, secrets: [...Object.values(secrets), ...(env.METRICS_TOKEN ? [env.METRICS_TOKEN] : [])], stop };
}
