"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { setSlackUrl } from "@/lib/alerts/settings";
import { setSlackUrlSchema } from "./set-slack-url.validation";

/**
 * Owners (checked by the data function): where the team's alerts are posted. Sending the team's
 * changes somewhere new needs a recent re-authentication, as saving credentials does; clearing does not.
 */
export const setSlackUrlAction = authedAction(
  { name: "alerts.set-slack-url", schema: setSlackUrlSchema, recentAuth: (input) => input.url !== null },
  async (input, { actor, ip }) => {
    const change = await setSlackUrl(actor, input, { ip });
    revalidatePath("/settings");
    if (change.label) return { message: `Saved: alerts are posted to ${change.label}. Use “Send a test” to check.` };
    return { message: change.changed ? "Removed: alerts are no longer posted to Slack." : "No Slack URL was set." };
  },
);
