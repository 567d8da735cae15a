import { randomUUID } from "node:crypto";
import { getActor } from "@/lib/auth/session";
import { findingsCsv } from "@/lib/health/csv";
import { loadHealthReport } from "@/lib/health/report";
import { FAILURE_STATUS } from "@/lib/ems-access/shared-read";
import { log } from "@/lib/log";

export const dynamic = "force-dynamic";

function problem(status: number, message: string) {
  return Response.json({ error: message }, { status, headers: { "Cache-Control": "no-store" } });
}

/**
 * GET /api/health-findings: the Health page's findings as a CSV file, read with the caller's own
 * credentials (session-checked here, never trusting the proxy alone).
 */
export async function GET() {
  const actor = await getActor();
  if (!actor) return problem(401, "Sign in to export.");
  if (actor.teamRequiresTwoFactor && !actor.twoFactorEnabled) return problem(403, "Your team requires two-factor sign-in: set it up first.");
  const requestId = randomUUID();
  try {
    const report = await loadHealthReport(actor);
    if (report.kind === "no-credentials") return problem(FAILURE_STATUS[report.kind], "Add your EMS API credentials in Settings first.");
    if (report.kind !== "ok") return problem(FAILURE_STATUS[report.kind], report.message);
    const day = new Date().toISOString().slice(0, 10);
    return new Response(findingsCsv(report), {
      headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="health-findings-${day}.csv"`, "Cache-Control": "no-store" },
    });
  } catch (error) {
    log.error({ event: "health.export_failed", requestId, err: error }, "the findings export failed");
    return problem(500, `The findings could not be exported (reference ${requestId.slice(0, 8)}).`);
  }
}
