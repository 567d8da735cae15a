import { randomBytes } from "node:crypto";
import { reloadEmsConfig } from "@/lib/ems/config";

/**
 * The secrets the EMS client needs (token encryption key ring, fingerprint server secret). Tests
 * keep whatever the harness or .env.local set, and fill in throwaway values otherwise.
 */
export function ensureEmsTestEnv(): void {
  process.env.CREDENTIAL_ENCRYPTION_KEYS ||= `test:${randomBytes(32).toString("base64")}`;
  process.env.NEXTAUTH_SECRET ||= randomBytes(24).toString("base64url");
  // One JSON line per request would bury the test report; tests that check the logs set "info".
  process.env.EMS_LOG_LEVEL ||= "warn";
  reloadEmsConfig();
}

/** Sets environment variables for the length of a test; returns the function that restores them. */
export function withEnv(values: Record<string, string | undefined>): () => void {
  const saved = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  reloadEmsConfig();
  return () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    reloadEmsConfig();
  };
}
