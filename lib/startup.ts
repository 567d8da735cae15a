import "server-only";
import { EnvError, serverEnv } from "@/lib/env";

/** Node runtime only (instrumentation.ts): print what is wrong with the environment and stop. */
export function validateEnvironmentOrExit(): void {
  try {
    serverEnv();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
