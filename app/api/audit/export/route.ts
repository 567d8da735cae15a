import { z } from "zod";
import { authedRoute } from "@/lib/actions/route";
import { problem } from "@/lib/actions/route-errors";
import { parseAuditFilters } from "@/lib/audit-log/filters";
import { csvLine } from "@/lib/csv";
import { exportAuditLog } from "@/lib/audit-log/entries";
import { ForbiddenError } from "@/lib/errors";

export const dynamic = "force-dynamic";

const AUDIT_CSV_COLUMNS = ["time_utc", "actor_name", "actor_email", "action", "sentence"] as const;

/**
 * The audit page's filters, read as the page reads them, except that a filter the page would ignore
 * (with a notice) is refused here with the page's reason: a file never holds something other than
 * what was asked for. The page number means nothing to a file.
 */
const auditExportQuery = z.instanceof(URLSearchParams).transform((params, ctx) => {
  const filters = new URLSearchParams(params);
  filters.delete("page");
  const parsed = parseAuditFilters(filters);
  if (parsed.notices.length > 0) ctx.addIssue({ code: "custom", message: parsed.notices.join(" ") });
  return parsed;
});

/**
 * GET /api/audit/export?<the audit page's filters>: every matching entry as CSV (newest first),
 * with the same authorisation as the page, checked by the data function against the role the
 * database has now. Cells go through csvLine, which defuses text a spreadsheet would run as a
 * formula (a name may start with "=").
 */
export const GET = authedRoute({ name: "audit.export", query: auditExportQuery }, async (filters, { actor }) => {
  const result = await exportAuditLog(actor, filters).catch((error: unknown) => {
    // The data function's refusal speaks of managing the team; here, what was refused is reading the log.
    throw error instanceof ForbiddenError ? new ForbiddenError("Only owners and admins can read the audit log.") : error;
  });
  if (!result.ok) return problem(413, result.message);
  if (result.notices.length > 0) return problem(400, result.notices.join(" "));

  let body = csvLine(AUDIT_CSV_COLUMNS);
  for (const record of result.records) {
    body += csvLine([record.createdAt.toISOString(), record.actorName ?? "", record.actorEmail ?? "", record.actionLabel, record.text]);
  }
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="audit-log-${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
});
