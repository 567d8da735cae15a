import { z } from "zod";
import { authedRoute } from "@/lib/actions/route";
import { admit } from "@/lib/admission";
import { problem } from "@/lib/actions/route-errors";
import { auditByActor } from "@/lib/audit/log";
import { getEmsClientForActor } from "@/lib/ems-access/credential";
import { exportEnv } from "@/lib/env";
import { BadRequestError } from "@/lib/errors";
import { EXPORT_CONTENT_TYPE, startExport, type ExportFormat } from "@/lib/listing/export";
import { acquireExportSlot } from "@/lib/listing/export-slots";
import { assertMayReadHeaderValues } from "@/lib/listing/header-value-access";
import { toSearchParams } from "@/lib/listing/href";
import { parseListingSearchParams } from "@/lib/listing/search-params";

export const dynamic = "force-dynamic";

/** A slot is held past the export's own limit by this much before it counts as abandoned. */
const SLOT_MARGIN_SECONDS = 60;

/** The export's own two parameters; everything else is the listing page's options, read by its schema. */
const exportQuery = z.instanceof(URLSearchParams).transform((params) => {
  const listing = new URLSearchParams(params);
  listing.delete("format");
  listing.delete("headerValues");
  return {
    format: (params.get("format") === "json" ? "json" : "csv") satisfies ExportFormat as ExportFormat,
    headerValuesAsked: params.get("headerValues") === "include",
    listing,
  };
});

type ExportQuery = z.output<typeof exportQuery>;

/** Only webhook groups have header values: asking for them on events asks for nothing. */
const includesHeaderValues = (query: ExportQuery, resource: string) => resource === "webhook-groups" && query.headerValuesAsked;

/**
 * GET /api/export/webhook-groups?format=csv&<the page's options>[&headerValues=include]: every
 * matching row, streamed as events (lib/listing/export.ts) that the export button turns into the
 * file. The data is fetched with the caller's own credentials only. A person runs at most
 * EXPORT_MAX_CONCURRENT exports at once (429 beyond), each for at most EXPORT_MAX_SECONDS. Webhook
 * header values (third parties' secrets, the same rule as "Reveal": lib/listing/header-value-access.ts)
 * are hidden unless `headerValues=include`, which is recorded in the team's audit log and needs a
 * recent re-authentication (403 with `reauthRequired`: the button asks for it and starts again).
 */
export const GET = authedRoute<{ resource: string }, typeof exportQuery>(
  { name: "listing.export", query: exportQuery, recentAuth: (query, { resource }) => includesHeaderValues(query, resource) },
  async (query, { actor, requestId, ip, request, params: { resource } }) => {
    if (resource !== "webhook-groups" && resource !== "events" && resource !== "webhooks") return problem(404, "There is no such listing to export.");
    const { format } = query;
    const includeHeaderValues = includesHeaderValues(query, resource);
    // The pipeline asked for the re-authentication already; this is the one rule "Reveal" follows too.
    if (includeHeaderValues) assertMayReadHeaderValues(actor);
    const state = parseListingSearchParams(resource, query.listing);
    if (state.notices.length > 0 || state.idsErrors.length > 0) throw new BadRequestError([...state.notices, ...state.idsErrors].join(" "));
    // The export walks the EMS's own pages; a check's records are a set of ids paged by the portal
    // (lib/listing-page/check-filter.ts), which it does not do: refused, never the unfiltered list.
    if (state.check) throw new BadRequestError("A list filtered by a Health check cannot be exported yet; remove the check's filter to export the list.");

    const client = await getEmsClientForActor(actor);
    if (client === null) return problem(409, "Add your EMS API credentials in Settings first.");

    const limits = exportEnv();
    // This instance's share first (lib/admission.ts: 429 with Retry-After), then the person's across instances.
    const admission = admit("export", actor.userId);
    const slot = await acquireExportSlot(actor.userId, { max: limits.EXPORT_MAX_CONCURRENT, holdSeconds: limits.EXPORT_MAX_SECONDS + SLOT_MARGIN_SECONDS }).catch(
      (error: unknown) => {
        admission.release();
        throw error;
      },
    );
    if (!slot) {
      admission.release();
      const running = limits.EXPORT_MAX_CONCURRENT === 1 ? "an export" : `${limits.EXPORT_MAX_CONCURRENT} exports`;
      return problem(429, `You already have ${running} running. Wait for one to finish, or cancel it, then start this one again.`);
    }
    const finished = async () => {
      admission.release();
      await slot.release();
    };

    try {
      if (includeHeaderValues) {
        await auditByActor(actor, {
          action: "export.header_values_included",
          target: resource,
          ip,
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
        onFinish: finished,
      });
      return new Response(stream, {
        headers: {
          "Content-Type": EXPORT_CONTENT_TYPE,
          "Cache-Control": "no-store",
          // Events must reach the browser as they are written, not when a proxy's buffer fills.
          "X-Accel-Buffering": "no",
        },
      });
    } catch (error) {
      await finished();
      // The browser gave up (the export was cancelled before its first page): nobody to answer.
      if (request.signal.aborted) return new Response(null, { status: 499 });
      throw error;
    }
  },
);
