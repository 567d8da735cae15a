import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";

/**
 * A tiny OTLP/HTTP receiver for traces (JSON encoding, which the portal's exporter sends): what an
 * OpenTelemetry Collector would take at `<endpoint>/v1/traces`, kept in memory for a test to read.
 * Every raw body is kept too, so that a test can search everything the portal sent.
 */

export type AttributeValue = string | number | boolean;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: number;
  scope: string;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, AttributeValue>;
  statusCode: number;
}

export interface OtlpReceiver {
  /** The base URL to give as OTEL_EXPORTER_OTLP_ENDPOINT. */
  endpoint: string;
  spans: ReceivedSpan[];
  rawBodies: string[];
  /** Waits until `done(spans)` is true (polling the spans received so far), or fails after `timeoutMs`. */
  waitFor(done: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

type OtlpValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: { key: string; value: OtlpValue }[];
  status?: { code?: number };
};
type OtlpTraces = { resourceSpans?: { scopeSpans?: { scope?: { name?: string }; spans?: OtlpSpan[] }[] }[] };

function valueOf(value: OtlpValue): AttributeValue {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  return JSON.stringify(value);
}

export function decodeTraces(body: OtlpTraces): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resource of body.resourceSpans ?? []) {
    for (const scoped of resource.scopeSpans ?? []) {
      for (const span of scoped.spans ?? []) {
        spans.push({
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId ? span.parentSpanId : null,
          name: span.name,
          kind: span.kind ?? 0,
          scope: scoped.scope?.name ?? "",
          startNs: BigInt(span.startTimeUnixNano),
          endNs: BigInt(span.endTimeUnixNano),
          attributes: Object.fromEntries((span.attributes ?? []).map((attribute) => [attribute.key, valueOf(attribute.value)])),
          statusCode: span.status?.code ?? 0,
        });
      }
    }
  }
  return spans;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const rawBodies: string[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method !== "POST" || request.url !== "/v1/traces") {
        response.writeHead(404).end();
        return;
      }
      let body = Buffer.concat(chunks);
      if (request.headers["content-encoding"] === "gzip") body = gunzipSync(body);
      if (!String(request.headers["content-type"]).startsWith("application/json")) {
        // Only the JSON encoding is understood here: say so, as a collector would.
        response.writeHead(415, { "Content-Type": "application/json" }).end(JSON.stringify({ message: "send application/json" }));
        return;
      }
      const text = body.toString("utf8");
      rawBodies.push(text);
      spans.push(...decodeTraces(JSON.parse(text) as OtlpTraces));
      response.writeHead(200, { "Content-Type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    rawBodies,
    async waitFor(done, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      while (!done(spans)) {
        if (Date.now() > until) throw new Error(`the OTLP receiver did not get the expected spans within ${timeoutMs} ms (${spans.length} received)`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The spans of one trace as an indented tree with durations, children in the order they started. */
export function traceTree(spans: ReceivedSpan[], rootId: string): string {
  const children = new Map<string, ReceivedSpan[]>();
  for (const span of spans) {
    if (!span.parentSpanId) continue;
    const list = children.get(span.parentSpanId) ?? [];
    list.push(span);
    children.set(span.parentSpanId, list);
  }
  const root = spans.find((span) => span.spanId === rootId)!;
  const lines: string[] = [];
  const SHOWN = [
    "http.method",
    "http.status_code",
    "next.route",
    "ems.resource",
    "ems.shared_answer",
    "ems.attempt",
    "http.response.status_code",
    "ems.credits_remaining",
    "ems.token.result",
    "url.path",
    "db.query.text",
  ];
  const walk = (span: ReceivedSpan, depth: number) => {
    const ms = Number(span.endNs - span.startNs) / 1e6;
    const offset = Number(span.startNs - root.startNs) / 1e6;
    const attributes = SHOWN.filter((key) => span.attributes[key] !== undefined)
      .map((key) => `${key}=${String(span.attributes[key]).replace(/\s+/g, " ").trim().slice(0, 90)}`)
      .join(" ");
    lines.push(`${"  ".repeat(depth)}${span.name}  ${ms.toFixed(1)} ms (+${offset.toFixed(1)})${attributes ? `  [${attributes}]` : ""}`);
    for (const child of (children.get(span.spanId) ?? []).sort((a, b) => (a.startNs < b.startNs ? -1 : 1))) walk(child, depth + 1);
  };
  walk(root, 0);
  return lines.join("\n");
}
