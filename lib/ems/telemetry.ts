import "server-only";
import { metrics } from "@/lib/telemetry/metrics";
import { setActiveSpanAttributes } from "@/lib/telemetry/spans";
import { EVENTS_PATH, TOKEN_PATH, WEBHOOKS_PATH, webhookGroupsPath } from "./config";

/**
 * What the traces and metrics (lib/telemetry) call an EMS path: the resource it belongs to, a small
 * fixed set (a label of ems_calls_total and an attribute of the EMS call spans). Never the query
 * string: it may hold search values.
 */
export type EmsTelemetryResource = "token" | "webhook-groups" | "webhooks" | "events" | "other";

export function emsResourceOf(path: string): EmsTelemetryResource {
  const under = (base: string) => path === base || path.startsWith(`${base}/`);
  if (path === TOKEN_PATH) return "token";
  if (under(EVENTS_PATH)) return "events";
  if (under(WEBHOOKS_PATH)) return "webhooks";
  if (under(webhookGroupsPath())) return "webhook-groups";
  return "other";
}

/** A call that waits for the rate-limit window (a 429, a spent budget, or the page views' reserve): counted, and noted on its span. */
export function countRateLimitWait(reason: "rate_limited" | "reserve", seconds: number): void {
  metrics().emsRateLimitWaits.inc({ reason });
  metrics().emsRateLimitWaitSeconds.inc({ reason }, seconds);
  setActiveSpanAttributes({ "ems.rate_limit_wait_reason": reason, "ems.rate_limit_wait_seconds": seconds });
}
