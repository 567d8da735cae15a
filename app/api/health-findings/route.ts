import { getActor } from "@/lib/auth/session";
import { findingsCsv } from "@/lib/health/csv";
import { loadHealthReport } from "@/lib/health/report";
import type { ListingFailure } from "@/lib/listing/load";

export const dynamic = "force-dynamic";

/** The HTTP status of each way reading the setup can fail. */
const STATUS_OF: Record<ListingFailure["kind"], number> = {
  "no-credentials": 409,
  rejected: 403,
  "rate-limited": 429,
  unavailable: 503,
  "bad-request": 400,
  "invalid-response": 502,
  unknown: 500,
};

const TITLES: Partial<Record<ListingFailure["kind"], string>> = { "no-credentials": "Add your EMS API credentials in Settings first." };

/**
 * GET /api/health-findings: the Health page's findings as a CSV file, read with the caller's own
 * credentials (session-checked here, never trusting the proxy alone).
 */
export async function GET() {
  const actor = await getActor();
  if (!actor) return Response.json({ error: "Sign in to export." }, { status: 401, headers: { "Cache-Control": "no-store" } });
  if (actor.teamRequiresTwoFactor && !actor.twoFactorEnabled) return Response.json({ error: "Your team requires two-factor sign-in: set it up first." }, { status: 403 });
  const report = await loadHealthReport(actor);
  if (report.kind !== "ok") {
    const message = TITLES[report.kind] ?? ("message" in report ? report.message : "The findings could not be read.");
    return Response.json({ error: message }, { status: STATUS_OF[report.kind], headers: { "Cache-Control": "no-store" } });
  }
  const day = new Date().toISOString().slice(0, 10);
  return new Response(findingsCsv(report), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="health-findings-${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
