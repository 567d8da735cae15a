"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { emailAlertsAvailable, setAlertPreferences } from "@/lib/alerts/settings";
import { setAlertPreferencesSchema } from "./set-alert-preferences.validation";

/** Any member: which alerts they get by email (their own choice only). */
export const setAlertPreferencesAction = authedAction(
  { name: "alerts.set-preferences", schema: setAlertPreferencesSchema, invalidMessage: "Those choices could not be read; reload the page and try again." },
  async (input, { actor }) => {
    const saved = await setAlertPreferences(actor, input);
    revalidatePath("/settings");
    const wanted = [saved.emailChanges ? "changes to the setup" : null, saved.emailHealth ? "new health findings" : null].filter(Boolean);
    if (wanted.length === 0) return { message: "Saved: you get no alert emails." };
    const what = `Saved: you get an email for ${wanted.join(" and ")}.`;
    return { message: emailAlertsAvailable() ? what : `${what} Email is off on this deployment, so none are sent until it is set up.` };
  },
);
