"use server";

import { redirect } from "next/navigation";
import { authedAction } from "@/lib/actions/pipeline";
import { loadHealthReport } from "@/lib/health/report";
import { loadSetup } from "@/lib/setup/load";
import { refreshSetupSchema } from "./refresh-setup.validation";

/**
 * Asks the API again for the account's whole setup (every page of groups and events, bypassing
 * the shared answers), updates the health counts, then shows the page it came from.
 */
export const refreshSetupAction = authedAction({ name: "coverage.refresh", schema: refreshSetupSchema }, async ({ returnTo }, { actor }) => {
  const setup = loadSetup(actor, { refresh: true });
  await loadHealthReport(actor, { setup });
  redirect(returnTo);
});
