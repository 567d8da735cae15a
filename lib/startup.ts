import "server-only";
import { EnvError, serverEnv } from "@/lib/env";

/**
 * Node runtime only (instrumentation.ts): check every variable at start-up; on a bad environment
 * print what is wrong, naming each variable, and stop with exit code 1.
 *
 * The fatal message is written to stderr as plain text, not through the logger: the logger's own
 * settings (LOG_LEVEL, LOG_FORMAT) may be what is wrong, LOG_LEVEL=silent would hide the one line
 * that matters, and a list of variables to fix reads best as text in a deploy log.
 *
 * Besides each variable's own rule, lib/env.ts refuses combinations that are unsafe in production:
 * the sandbox enabled with the public development signing secret (or none) is one.
 */
export function validateEnvironmentOrExit(): void {
  try {
    serverEnv();
  } catch (error) {
    const message = error instanceof EnvError ? error.message : `EMS Portal cannot start: ${error instanceof Error ? error.message : String(error)}`;
    process.stderr.write(`${message}\n`);
    process.exit(1);
  }
}
