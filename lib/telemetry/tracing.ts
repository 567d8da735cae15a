import "server-only";
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, TracerProvider, type Span, type SpanProcessor } from "@opentelemetry/sdk-trace";
import { PrismaInstrumentation } from "@prisma/instrumentation";
import { tracingEnv } from "@/lib/env";
import { log } from "@/lib/log";
import { markTracingOn } from "./spans";

/**
 * OpenTelemetry traces, started by instrumentation.ts when OTEL_EXPORTER_OTLP_ENDPOINT is set (this
 * module is not even loaded otherwise). Registers the global tracer provider that Next.js's own
 * spans (one per request, and its rendering steps) use, the context manager that makes the
 * portal's spans (lib/telemetry/spans.ts) children of the request they run in, and Prisma's
 * instrumentation (a span per query, `db.query.text` with placeholders, never the values).
 *
 * Spans are batched and sent over OTLP/HTTP as JSON to `<endpoint>/v1/traces`, with
 * OTEL_EXPORTER_OTLP_HEADERS (e.g. a hosted collector's key). A collector that is down costs the
 * batch, never a request: the exporter drops what it cannot send and logs through OpenTelemetry's
 * own diagnostics (off by default).
 */

const holder = globalThis as unknown as { emsTracerProvider?: TracerProvider };

/**
 * Next.js puts the request's URL on its spans as `http.target`, query string and all (a listing's
 * search values, `/sign-up?invite=<token>`), and the proxy's span the raw path (`/invite/<token>`).
 * Before a span ends, this puts the route pattern there instead (`/invite/[token]`, from
 * `next.route`), or, without one, the first path segment only: no id, token or query value leaves.
 */
export const URL_ATTRIBUTES = ["http.target", "http.url", "url.full", "url.path", "url.query"] as const;
export class RequestUrlScrubber implements SpanProcessor {
  onStart(): void {}
  onEnding(span: Span): void {
    const route = span.attributes["next.route"];
    for (const key of URL_ATTRIBUTES) {
      const value = span.attributes[key];
      if (typeof value !== "string") continue;
      // The portal's own EMS spans carry a path without its query (lib/ems/http.ts): kept as it is.
      if (key === "url.path" && span.attributes["ems.resource"] !== undefined) continue;
      span.setAttribute(
        key,
        typeof route === "string"
          ? route
          : `/${
              value
                .replace(/^[a-z]+:\/\/[^/]*/i, "")
                .split(/[?#]/)[0]!
                .split("/")
                .filter(Boolean)[0] ?? ""
            }`,
      );
    }
  }
  onEnd(): void {}
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** How often a batch of spans is sent: soon enough for a trace to show while the page is still fresh in mind. */
const EXPORT_DELAY_MS = 2_000;

export function startTracing(): void {
  const env = tracingEnv();
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint || holder.emsTracerProvider) return;
  const exporter = new OTLPTraceExporter({ url: `${endpoint}/v1/traces`, headers: env.OTEL_EXPORTER_OTLP_HEADERS });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ "service.name": env.OTEL_SERVICE_NAME }),
    // The scrubber first: processors see a span's end in this order.
    spanProcessors: [new RequestUrlScrubber(), new BatchSpanProcessor({ exporter, scheduledDelayMillis: EXPORT_DELAY_MS })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  // Prisma's client asks a global helper, which this sets, for its spans (no module patching).
  new PrismaInstrumentation().enable();
  holder.emsTracerProvider = provider;
  markTracingOn();
  // What is still in the batch goes out when the server is told to stop (as far as Next's own
  // shutdown lets it: it does not wait for other listeners).
  const flush = () =>
    void provider
      .shutdown()
      .catch((error: unknown) => log.warn({ event: "telemetry.flush_failed", err: error instanceof Error ? error.name : "Error" }, "spans not flushed"));
  process.once("SIGTERM", flush);
  process.once("SIGINT", flush);
  // The endpoint is configuration, not a secret; the headers may be one and are not logged.
  log.info({ event: "telemetry.tracing_started", endpoint: `${endpoint}/v1/traces` }, "traces are exported over OTLP/HTTP");
}
