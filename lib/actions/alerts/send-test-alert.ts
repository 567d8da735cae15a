"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { sendTestAlert } from "@/lib/alerts/deliveries";
import { SafeError } from "@/lib/errors";
import { portalOrigin } from "@/lib/portal-origin";
import { sendTestAlertSchema } from "./send-test-alert.validation";

/** Owners and admins: one test alert to the team's Slack URL or to their own address, tried at once and listed with the deliveries. */
export const sendTestAlertAction = authedAction({ name: "alerts.send-test", schema: sendTestAlertSchema }, async (input, { actor }) => {
  const result = await sendTestAlert(actor, input, `${await portalOrigin()}/settings/alerts`);
  revalidatePath("/settings");
  const where = result.channel === "slack" ? "to Slack" : `to ${result.recipient}`;
  if (result.status === "sent") return { message: `Test alert sent ${where}.` };
  const reason = result.lastError ?? "no reason was given";
  if (result.status === "failed") throw new SafeError(`The test alert could not be sent ${where}: ${reason}.`, "test_not_sent");
  throw new SafeError(`The test alert was not sent ${where} yet (${reason}); it is tried again in a minute. The list below shows how it goes.`, "test_not_sent");
});
