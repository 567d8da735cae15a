import { getActor } from "@/lib/auth/session";
import { parseAuditFilters } from "@/lib/audit-log/filters";
import { isSafeError } from "@/lib/errors";
import { csvLine } from "@/lib/csv";
import { exportAuditLog } from "@/lib/audit-log/entries";

export const dynamic = "force-dynamic";

const AUDIT_CSV_COLUMNS = ["time_utc", "actor_name", "actor_email", "action", "sentence"] as const;

function problem(status: number, message: string) {
  return Response.json({ error: message }, { status, headers: { "Cache-Control": "no-store" } });
}

/**
 * GET /api/audit/export?<the audit page's filters>: every matching entry as CSV (newest first),
 * with the same authorisation as the page, checked by the data function against the role the
 * database has now. A filter the page would ignore is refused here with the page's reason, so a
 * file never holds something other than what was asked for. Cells go through csvLine, which
 * defuses text a spreadsheet would run as a formula (a name may start with "=").
 */
export async function GET(request: Request) {
  const actor = await getActor();
  if (!actor) return problem(401, "Sign in to export the audit log.");
  if (actor.teamRequiresTwoFactor && !actor.twoFactorEnabled) return problem(403, "Your team requires two-factor sign-in: set it up first.");
  const url = new URL(request.url);
  url.searchParams.delete("page");
  const parsed = parseAuditFilters(url.searchParams);
  if (parsed.notices.length > 0) return problem(400, parsed.notices.join(" "));

  let result: Awaited<ReturnType<typeof exportAuditLog>>;
  try {
    result = await exportAuditLog(actor, parsed);
  } catch (error) {
    if (isSafeError(error) && error.code === "forbidden") return problem(403, "Only owners and admins can read the audit log.");
    throw error;
  }
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
}
