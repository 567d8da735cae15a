import "server-only";
import { metricsEnv } from "@/lib/env";
import { bearerTokenMatches } from "@/lib/security/bearer-token";
import { scrape } from "./metrics";

const NO_STORE = { "Cache-Control": "no-store" };

/**
 * GET /api/metrics for a Prometheus scraper: this instance's metrics in the Prometheus text format,
 * behind `Authorization: Bearer $METRICS_TOKEN` (compared in constant time).
 * - METRICS_TOKEN unset: 404, as if there were no such route (nothing to find for a prober).
 * - No or another token: 401.
 */
export async function metricsResponse(request: Request): Promise<Response> {
  const token = metricsEnv().METRICS_TOKEN;
  if (!token) return new Response("Not found.\n", { status: 404, headers: { ...NO_STORE, "Content-Type": "text/plain; charset=utf-8" } });
  if (!bearerTokenMatches(request.headers.get("authorization"), token)) {
    return new Response("Unauthorized.\n", {
      status: 401,
      headers: { ...NO_STORE, "Content-Type": "text/plain; charset=utf-8", "WWW-Authenticate": 'Bearer realm="metrics"' },
    });
  }
  const { body, contentType } = await scrape();
  return new Response(body, { headers: { ...NO_STORE, "Content-Type": contentType } });
}
