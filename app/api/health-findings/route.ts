import { authedRoute } from "@/lib/actions/route";
import { problem } from "@/lib/actions/route-errors";
import { findingsCsv } from "@/lib/health/csv";
import { loadHealthReport } from "@/lib/health/report";
import { FAILURE_STATUS } from "@/lib/ems-access/shared-read";

export const dynamic = "force-dynamic";

/**
 * GET /api/health-findings: the Health page's findings as a CSV file, read with the caller's own
 * credentials. A read the EMS refused keeps the listing pages' statuses (409 not connected, 403, 429…).
 */
export const GET = authedRoute({ name: "health.findings-export" }, async (_query, { actor }) => {
  const report = await loadHealthReport(actor);
  if (report.kind === "no-credentials") return problem(FAILURE_STATUS[report.kind], "Add your EMS API credentials in Settings first.");
  if (report.kind !== "ok") return problem(FAILURE_STATUS[report.kind], report.message);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(findingsCsv(report), {
    headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="health-findings-${day}.csv"`, "Cache-Control": "no-store" },
  });
});
