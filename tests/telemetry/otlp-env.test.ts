import { describe, expect, it } from "vitest";
import { tracingEnv } from "@/lib/env";

// The tracing variables as lib/env.ts checks them at start-up (lib/telemetry/tracing.ts reads them).
const base = {};

describe("OTEL_* variables", () => {
  it("leave tracing off when the endpoint is unset, with ems-portal as the service name", () => {
    const env = tracingEnv(base);
    expect(env.OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
    expect(env.OTEL_EXPORTER_OTLP_HEADERS).toEqual({});
    expect(env.OTEL_SERVICE_NAME).toBe("ems-portal");
  });

  it("take an http(s) endpoint without a trailing slash, and refuse one with a query or a user name", () => {
    expect(tracingEnv({ ...base, OTEL_EXPORTER_OTLP_ENDPOINT: "https://otel.example.com:4318/" }).OTEL_EXPORTER_OTLP_ENDPOINT).toBe("https://otel.example.com:4318");
    for (const bad of ["otel.example.com:4318", "ftp://otel.example.com", "https://otel.example.com/?key=1", "https://user:pw@otel.example.com"]) {
      expect(() => tracingEnv({ ...base, OTEL_EXPORTER_OTLP_ENDPOINT: bad }), bad).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT must be an http/);
    }
  });

  it("parse headers as name=value pairs, URL-decoded, and never quote a value in an error", () => {
    expect(tracingEnv({ ...base, OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=abc%3D1, x-team = t" }).OTEL_EXPORTER_OTLP_HEADERS).toEqual({
      "x-api-key": "abc=1",
      "x-team": "t",
    });
    let message = "";
    try {
      tracingEnv({ ...base, OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=ok,very-secret-value" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/OTEL_EXPORTER_OTLP_HEADERS must be name=value pairs.*entry 2/);
    expect(message).not.toContain("very-secret-value");
  });
});

describe("RequestUrlScrubber", () => {
  it("puts the route pattern, or the first path segment, where Next.js put the request's URL", async () => {
    const { TracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = await import("@opentelemetry/sdk-trace");
    const { RequestUrlScrubber } = await import("@/lib/telemetry/tracing");
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({ spanProcessors: [new RequestUrlScrubber(), new SimpleSpanProcessor({ exporter })] });
    const tracer = provider.getTracer("test");
    const end = (attributes: Record<string, string>) => tracer.startSpan("span", { attributes }).end();
    end({ "http.target": "/sign-up?invite=secret-1", "next.route": "/sign-up" });
    end({ "http.target": "/invite/secret-2" });
    end({ "http.target": "/webhook-groups?search=name~secret-3" });
    end({ "url.path": "/api/v1/events/1190", "ems.resource": "events" });
    expect(exporter.getFinishedSpans().map((span) => span.attributes)).toEqual([
      { "http.target": "/sign-up", "next.route": "/sign-up" },
      { "http.target": "/invite" },
      { "http.target": "/webhook-groups" },
      { "url.path": "/api/v1/events/1190", "ems.resource": "events" },
    ]);
  });
});
