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

/**
 * Lets the EMS client reach a test's own server on loopback the way an operator would let a private
 * EMS through: by adding its origin to EMS_ALLOW_PRIVATE_ORIGINS (child processes inherit it).
 * Returns the function that takes exactly that origin out again.
 */
export function allowPrivateOrigin(url: string): () => void {
  const origin = new URL(url).origin;
  const listed = () => (process.env.EMS_ALLOW_PRIVATE_ORIGINS ?? "").split(",").filter(Boolean);
  process.env.EMS_ALLOW_PRIVATE_ORIGINS = [...listed(), origin].join(",");
  return () => {
    const rest = listed();
    const index = rest.lastIndexOf(origin);
    if (index >= 0) rest.splice(index, 1);
    if (rest.length) process.env.EMS_ALLOW_PRIVATE_ORIGINS = rest.join(",");
    else delete process.env.EMS_ALLOW_PRIVATE_ORIGINS;
  };
}
