import "server-only";
import { SpanKind, SpanStatusCode, trace, type Attributes, type Span } from "@opentelemetry/api";

/**
 * The portal's own spans (EMS calls, token requests, job runs, alert deliveries), beside Next.js's
 * request spans and Prisma's database spans. With tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT) the
 * work runs directly: no span object, no context switch.
 *
 * Attributes must never hold a secret, a token, a header value or a query string (it may hold
 * search values): paths, resource names, status codes, counts and result words only.
 */

const holder = globalThis as unknown as { emsTracingOn?: boolean };

/** Whether spans are recorded and exported in this process (lib/telemetry/tracing.ts turns it on). */
export function tracingOn(): boolean {
  return holder.emsTracingOn === true;
}

export function markTracingOn(): void {
  holder.emsTracingOn = true;
}

export interface SpanOptions {
  attributes?: Attributes;
  /** CLIENT for a call out of the process (the EMS, a mail or chat server); INTERNAL otherwise. */
  kind?: "client" | "internal";
}

/**
 * Runs `work` in a span named `name`, a child of the current one (a request's, a job's), ended when
 * the work settles. A thrown error marks the span as failed with the error's class name only (its
 * message may quote an answer of the EMS) and is thrown on. `work` gets the span (null when tracing
 * is off) to add attributes it learns on the way, through `setSpanAttributes`.
 */
export async function inSpan<T>(name: string, options: SpanOptions, work: (span: Span | null) => Promise<T>): Promise<T> {
  if (!tracingOn()) return work(null);
  const tracer = trace.getTracer("ems-portal");
  return tracer.startActiveSpan(name, { kind: options.kind === "client" ? SpanKind.CLIENT : SpanKind.INTERNAL, attributes: options.attributes }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      const type = error instanceof Error ? error.name : "Error";
      span.setAttribute("error.type", type);
      span.setStatus({ code: SpanStatusCode.ERROR, message: type });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Adds attributes to a span from `inSpan` (nothing when tracing is off); undefined values are left out. */
export function setSpanAttributes(span: Span | null, attributes: Record<string, string | number | boolean | undefined | null>): void {
  if (!span) return;
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null) span.setAttribute(key, value);
  }
}

/** Adds attributes to the current span, whoever made it (a shared-answer read inside an EMS listing). */
export function setActiveSpanAttributes(attributes: Record<string, string | number | boolean | undefined | null>): void {
  if (!tracingOn()) return;
  setSpanAttributes(trace.getActiveSpan() ?? null, attributes);
}
