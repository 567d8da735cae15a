import { randomUUID } from "node:crypto";
import { getActor } from "@/lib/auth/session";
import { getEmsClientForActor } from "@/lib/credentials/store";
import { exportEnv } from "@/lib/env";
import { startExport, type ExportFormat } from "@/lib/listing/export";
import { failureOf, type ListingFailure } from "@/lib/listing/load";
import { parseListingSearchParams } from "@/lib/listing/search-params";

export const dynamic = "force-dynamic";

/** The HTTP status of each way a listing can fail (tests/listing/export-route.test.ts). */
const STATUS_OF: Record<ListingFailure["kind"], number> = {
  "no-credentials": 409,
  rejected: 403,
  "rate-limited": 429,
  unavailable: 503,
  "bad-request": 400,
  "invalid-response": 502,
  unknown: 500,
};

function problem(status: number, message: string, headers: Record<string, string> = {}) {
  return Response.json({ error: message }, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

/**
 * GET /api/export/webhook-groups?format=csv&<the page's options>: every matching row, streamed.
 * Session-checked here (never trusting the proxy alone); the data is fetched with the caller's own
 * credentials only.
 */
export async function GET(request: Request, context: RouteContext<"/api/export/[resource]">) {
  const actor = await getActor();
  if (!actor) return problem(401, "Sign in to export.");
  const { resource } = await context.params;
  if (resource !== "webhook-groups" && resource !== "events") return problem(404, "There is no such listing to export.");
  const url = new URL(request.url);
  const format: ExportFormat = url.searchParams.get("format") === "json" ? "json" : "csv";
  url.searchParams.delete("format");
  const state = parseListingSearchParams(resource, url.searchParams);
  if (state.notices.length > 0 || state.idsErrors.length > 0) {
    return problem(400, [...state.notices, ...state.idsErrors].join(" "));
  }

  // From here on every answer names the request, so a failure can be found in the logs.
  const requestId = randomUUID();
  const client = await getEmsClientForActor(actor).catch((error: unknown) => failureOf(error, requestId));
  if (client === null) return problem(409, "Add your EMS API credentials in Settings first.", { "X-Request-Id": requestId });
  if ("kind" in client) return problem(STATUS_OF[client.kind], "message" in client ? client.message : "The export failed.", { "X-Request-Id": requestId });

  try {
    const result = await startExport(client, state, format, { maxRows: exportEnv().EXPORT_MAX_ROWS, signal: request.signal, requestId });
    const stamp = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, "");
    return new Response(result.stream, {
      headers: {
        "Content-Type": format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="${resource}-${stamp}.${format}"`,
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
        "X-Export-Total": String(result.total),
        "X-Export-Matching": String(result.matching),
        "X-Export-Truncated": result.truncated ? "1" : "0",
        "X-Request-Id": requestId,
      },
    });
  } catch (error) {
    const failure = failureOf(error, requestId);
    const headers: Record<string, string> = { "X-Request-Id": requestId };
    if (failure.kind === "rate-limited") headers["Retry-After"] = String(failure.retryAfterSeconds);
    return problem(STATUS_OF[failure.kind], "message" in failure ? failure.message : "The export failed.", headers);
  }
}
