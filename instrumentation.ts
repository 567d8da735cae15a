/**
 * Runs once when a server instance starts: refuse to start on a bad environment, so a deployment
 * with a missing secret fails loudly at boot instead of answering 500 on every page; then, when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set, start exporting traces (lib/telemetry/tracing.ts, not even
 * loaded otherwise, so tracing off costs nothing); then make the
 * HTTP server append each connection's address to X-Forwarded-For, as a proxy hop does, so the
 * client's address cannot be chosen by the client (lib/auth/forwarded-for.ts); then start the
 * job engine (lib/jobs/server.ts: on Node hosts, not during `next build`, not on Vercel).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { validateEnvironmentOrExit } = await import("@/lib/startup");
  validateEnvironmentOrExit();
  const { tracingEnv } = await import("@/lib/env");
  if (tracingEnv().OTEL_EXPORTER_OTLP_ENDPOINT) {
    const { startTracing } = await import("@/lib/telemetry/tracing");
    startTracing();
  }
  const { installForwardedForHook } = await import("@/lib/auth/forwarded-for");
  installForwardedForHook();
  const { startJobEngineForServer } = await import("@/lib/jobs/server");
  startJobEngineForServer(process.env.NEXT_PHASE);
}
