import type { Instrumentation } from "next";

type RequestErrorLogger = Instrumentation.onRequestError;
let requestErrorLogger: RequestErrorLogger | null = null;

/**
 * Runs once when a server instance starts: refuse to start on a bad environment, so a deployment
 * with a missing secret fails loudly at boot instead of answering 500 on every page; then, when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set, start exporting traces (lib/telemetry/tracing.ts, not even
 * loaded otherwise, so tracing off costs nothing); then make the
 * HTTP server append each connection's address to X-Forwarded-For, as a proxy hop does, so the
 * client's address cannot be chosen by the client (lib/auth/forwarded-for.ts), and answer a page
 * whose render the database's going failed with the outage page, not a 500
 * (lib/http/outage-response.ts), and let a stopping server close its kept-alive connections, so
 * SIGTERM ends the process (lib/http/graceful-close.ts); then start the job engine
 * (lib/jobs/server.ts: on Node hosts, not during `next build`, not on Vercel).
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
  // Loaded now, so that onRequestError runs it at once: it must note an outage before Next writes the 500.
  requestErrorLogger = (await import("@/lib/http/request-errors")).logRequestError;
  const { installForwardedForHook } = await import("@/lib/auth/forwarded-for");
  installForwardedForHook();
  const { installOutageResponseHook } = await import("@/lib/http/outage-response");
  installOutageResponseHook();
  const { installGracefulCloseHook } = await import("@/lib/http/graceful-close");
  installGracefulCloseHook();
  const { startJobEngineForServer } = await import("@/lib/jobs/server");
  startJobEngineForServer(process.env.NEXT_PHASE);
}

/** Every failed request (render, route handler, server action, proxy), as one log line of ours (lib/http/request-errors.ts). */
export const onRequestError: Instrumentation.onRequestError = (error, request, context) => {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (requestErrorLogger) return requestErrorLogger(error, request, context);
  return import("@/lib/http/request-errors").then(({ logRequestError }) => logRequestError(error, request, context));
};
