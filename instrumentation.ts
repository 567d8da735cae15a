/**
 * Runs once when a server instance starts: refuse to start on a bad environment, so a deployment
 * with a missing secret fails loudly at boot instead of answering 500 on every page.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { serverEnv, EnvError } = await import("@/lib/env");
  try {
    serverEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
