"use server";

import { redirect } from "next/navigation";
import { authedAction } from "@/lib/actions/pipeline";
import { SafeError } from "@/lib/errors";
import { loadHealthReport } from "@/lib/health/report";
import { loadSetup } from "@/lib/setup/load";
import { refreshSetupSchema } from "./refresh-setup.validation";

/**
 * Asks the API again for the account's whole setup (every page of groups and events, bypassing
 * the shared answers), updates the health counts, then shows the page it came from. A refresh the
 * API refused says why, and the page keeps showing what it had.
 */
export const refreshSetupAction = authedAction({ name: "coverage.refresh", schema: refreshSetupSchema }, async ({ returnTo }, { actor }) => {
  const report = await loadHealthReport(actor, { setup: loadSetup(actor, { refresh: true }) });
  if (report.kind !== "ok") throw new SafeError("message" in report ? report.message : "Add your EMS API credentials in Settings first.", `refresh_${report.kind}`);
  redirect(returnTo);
});
