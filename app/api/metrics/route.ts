import { metricsResponse } from "@/lib/telemetry/metrics-route";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Prometheus scrapes this instance's metrics here (lib/telemetry/metrics-route.ts: METRICS_TOKEN, 404 when unset). */
export const GET = metricsResponse;
