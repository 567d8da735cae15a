import { randomBytes } from "node:crypto";
import { reloadEmsConfig } from "@/lib/ems/config";
import { log, type LogLevel } from "@/lib/log";

/**
 * The secrets the EMS client needs (token encryption key ring, fingerprint server secret). Tests
 * keep whatever the harness or .env.local set, and fill in throwaway values otherwise.
 */
export function ensureEmsTestEnv(): void {
  process.env.CREDENTIAL_ENCRYPTION_KEYS ||= `test:${randomBytes(32).toString("base64")}`;
  process.env.NEXTAUTH_SECRET ||= randomBytes(24).toString("base64url");
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

/** Sets the logger's level for the length of a test (silent by default under NODE_ENV=test). */
export function withLogLevel(level: LogLevel): () => void {
  const previous = log.level;
  log.level = level;
  return () => {
    log.level = previous;
  };
}
