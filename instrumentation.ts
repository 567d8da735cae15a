/**
 * Runs once when a server instance starts: refuse to start on a bad environment, so a deployment
 * with a missing secret fails loudly at boot instead of answering 500 on every page.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { validateEnvironmentOrExit } = await import("@/lib/startup");
  validateEnvironmentOrExit();
}
