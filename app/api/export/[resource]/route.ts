import { randomUUID } from "node:crypto";
import { auditByActor } from "@/lib/audit/log";
import { clientIp } from "@/lib/auth/request-meta";
import { getActor } from "@/lib/auth/session";
import { REAUTH_REQUIRED_MESSAGE } from "@/lib/access/reauth-shared";
import { getEmsClientForActor } from "@/lib/ems-access/credential";
import { exportEnv } from "@/lib/env";
import { EXPORT_CONTENT_TYPE, startExport, type ExportFormat } from "@/lib/listing/export";
import { acquireExportSlot } from "@/lib/listing/export-slots";
import { mayReadHeaderValues } from "@/lib/listing/header-value-access";
import { FAILURE_STATUS, failureOf } from "@/lib/ems-access/shared-read";
import { toSearchParams } from "@/lib/listing/href";
import { parseListingSearchParams } from "@/lib/listing/search-params";

export const dynamic = "force-dynamic";

/** A slot is held past the export's own limit by this much before it counts as abandoned. */
const SLOT_MARGIN_SECONDS = 60;

function problem(status: number, message: string, headers: Record<string, string> = {}) {
  return Response.json({ error: message }, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

/**
 * GET /api/export/webhook-groups?format=csv&<the page's options>[&headerValues=include]: every
 * matching row, streamed as events (lib/listing/export.ts) that the export button turns into the
 * file. Session-checked here (never trusting the proxy alone); the data is fetched with the
 * caller's own credentials only. A person runs at most EXPORT_MAX_CONCURRENT exports at once
 * (429 beyond), each for at most EXPORT_MAX_SECONDS. Webhook header values are hidden unless
 * `headerValues=include`, which is recorded in the team's audit log and needs a recent
 * re-authentication (403 with `reauthRequired`, and the button asks for it and starts again).
 */
export async function GET(request: Request, context: RouteContext<"/api/export/[resource]">) {
  const actor = await getActor();
  if (!actor) return problem(401, "Sign in to export.");
  // As requireActor does for pages and actions: a team's two-factor requirement comes first.
  if (actor.teamRequiresTwoFactor && !actor.twoFactorEnabled) return problem(403, "Your team requires two-factor sign-in: set it up first.");
  const { resource } = await context.params;
  if (resource !== "webhook-groups" && resource !== "events") return problem(404, "There is no such listing to export.");
  const url = new URL(request.url);
  const format: ExportFormat = url.searchParams.get("format") === "json" ? "json" : "csv";
  const includeHeaderValues = resource === "webhook-groups" && url.searchParams.get("headerValues") === "include";
  url.searchParams.delete("format");
  url.searchParams.delete("headerValues");
  const state = parseListingSearchParams(resource, url.searchParams);
  if (state.notices.length > 0 || state.idsErrors.length > 0) {
    return problem(400, [...state.notices, ...state.idsErrors].join(" "));
  }

  // Header values are third parties' secrets: the same rule as "Reveal" on a group's page
  // (lib/listing/header-value-access.ts). The two-factor requirement was answered above.
  if (includeHeaderValues && !mayReadHeaderValues(actor)) {
    return Response.json({ error: REAUTH_REQUIRED_MESSAGE, reauthRequired: true }, { status: 403, headers: { "Cache-Control": "no-store" } });
  }

  // From here on every answer names the request, so a failure can be found in the logs.
  const requestId = randomUUID();
  const named = { "X-Request-Id": requestId };
  const client = await getEmsClientForActor(actor).catch((error: unknown) => failureOf(error, requestId));
  if (client === null) return problem(409, "Add your EMS API credentials in Settings first.", named);
  if ("kind" in client) return problem(FAILURE_STATUS[client.kind], "message" in client ? client.message : "The export failed.", named);

  const limits = exportEnv();
  const slot = await acquireExportSlot(actor.userId, { max: limits.EXPORT_MAX_CONCURRENT, holdSeconds: limits.EXPORT_MAX_SECONDS + SLOT_MARGIN_SECONDS });
  if (!slot) {
    const running = limits.EXPORT_MAX_CONCURRENT === 1 ? "an export" : `${limits.EXPORT_MAX_CONCURRENT} exports`;
    return problem(429, `You already have ${running} running. Wait for one to finish, or cancel it, then start this one again.`, named);
  }

  try {
    if (includeHeaderValues) {
      await auditByActor(actor, {
        action: "export.header_values_included",
        target: resource,
        ip: await clientIp(),
        metadata: { resource, format, query: toSearchParams(state, { includePage: false, includeView: false }).toString() },
      });
    }
    const stamp = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, "");
    const { stream } = await startExport(client, state, format, {
      maxRows: limits.EXPORT_MAX_ROWS,
      maxSeconds: limits.EXPORT_MAX_SECONDS,
      filename: `${resource}-${stamp}.${format}`,
      includeHeaderValues,
      signal: request.signal,
      requestId,
      teamId: actor.teamId,
      onFinish: slot.release,
    });
    return new Response(stream, {
      headers: {
        "Content-Type": EXPORT_CONTENT_TYPE,
        "Cache-Control": "no-store",
        // Events must reach the browser as they are written, not when a proxy's buffer fills.
        "X-Accel-Buffering": "no",
        ...named,
      },
    });
  } catch (error) {
    await slot.release();
    // The browser gave up (the export was cancelled before its first page): nobody to answer.
    if (request.signal.aborted) return new Response(null, { status: 499, headers: named });
    const failure = failureOf(error, requestId);
    const headers: Record<string, string> = { ...named };
    if (failure.kind === "rate-limited") headers["Retry-After"] = String(failure.retryAfterSeconds);
    return problem(FAILURE_STATUS[failure.kind], "message" in failure ? failure.message : "The export failed.", headers);
  }
}
