import { randomBytes } from "node:crypto";
import { E2E_FAULT_SANDBOX_URL, E2E_PLANS_SANDBOX_URL, E2E_SANDBOX_ADMIN_SECRET } from "./config";

/**
 * The environment of a production server under test (`node .next/standalone/server.js`): fresh
 * secrets, the embedded sandbox on, limits that would only throttle the suite turned up. Used by the
 * e2e server (scripts/e2e-server.ts) and by specs that run a server of their own
 * (e2e/helpers/own-server.ts), so both serve the same portal.
 */
export function testServerEnv({ port, databaseUrl, baseUrl }: { port: number; databaseUrl: string; baseUrl: string }): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    // The standalone server binds HOSTNAME, which containers set to their own name.
    HOSTNAME: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    NEXTAUTH_URL: baseUrl,
    NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
    CREDENTIAL_ENCRYPTION_KEYS: `e2e:${randomBytes(32).toString("base64")}`,
    EMS_FINGERPRINT_SECRET: randomBytes(32).toString("base64url"),
    SANDBOX_ENABLED: "true",
    SANDBOX_SIGNING_SECRET: randomBytes(32).toString("base64url"),
    SANDBOX_ADMIN_SECRET: E2E_SANDBOX_ADMIN_SECRET,
    // The fault and plan specs' own sandboxes are private origins: listed on purpose, as an operator would.
    EMS_ALLOW_PRIVATE_ORIGINS: `${E2E_FAULT_SANDBOX_URL},${E2E_PLANS_SANDBOX_URL}`,
    // Every browser of the suite signs in from 127.0.0.1: the per-address limit is covered by the
    // throttle's database test; here it would throttle unrelated tests.
    AUTH_MAX_FAILURES_PER_ADDRESS: "100000",
    SIGNUP_MAX_PER_ADDRESS: "100000",
    // Most specs sign up people of their own, without an invitation.
    SIGNUP_MODE: "open",
    // The lockout spec plays a second client through X-Forwarded-For, as if behind one proxy.
    TRUSTED_PROXY_COUNT: "1",
    // No scheduled jobs by default: the job engine has tests of its own (tests/jobs), and the
    // retention job would only delete what specs seeded long ago. A spec may turn them on.
    JOBS_ENABLED: "false",
    // Warnings and errors only: a line per EMS call would bury the test report.
    LOG_LEVEL: process.env.LOG_LEVEL || "warn",
  };
}
