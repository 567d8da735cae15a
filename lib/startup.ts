import "server-only";
import { EnvError, serverEnv } from "@/lib/env";
import { emsConfig } from "@/lib/ems/config";

/** Node runtime only (instrumentation.ts): print what is wrong with the environment and stop. */
export function validateEnvironmentOrExit(): void {
  try {
    serverEnv();
    emsConfig(); // EMS_* settings: a bad value stops the start too
  } catch (error) {
    console.error(error instanceof Error && !(error instanceof EnvError) ? `EMS Portal cannot start: ${error.message}` : (error as Error).message);
    process.exit(1);
  }
}
