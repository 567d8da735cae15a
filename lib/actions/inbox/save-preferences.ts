"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { saveInboxPreferences } from "@/lib/inbox/preferences";
import { savePreferencesSchema } from "./save-preferences.validation";

/** Any member: which kinds of inbox item also reach them by email or the team's Slack (their own choice only). */
export const saveInboxPreferencesAction = authedAction(
  { name: "inbox.save-preferences", schema: savePreferencesSchema, invalidMessage: "Those choices could not be read; reload the page and try again." },
  async (input, { actor, ip }) => {
    await saveInboxPreferences(actor, input, { ip });
    revalidatePath("/inbox/preferences");
    return { message: "Saved." };
  },
);
