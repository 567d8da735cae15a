"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { saveCredential } from "@/lib/credentials/store";
import { saveCredentialsSchema } from "./save-credentials.validation";
import { plural } from "@/lib/text/plural";

/**
 * Saves the actor's own credentials once the EMS has accepted them (or, with "Save anyway", without
 * asking it: for an API that is down). The answer never carries the key or the secret back.
 */
export const saveCredentialsAction = authedAction(
  { name: "credentials.save", schema: saveCredentialsSchema, recentAuth: true },
  async ({ saveAnyway, ...input }, { actor, ip, requestId }) => {
    const saved = await saveCredential(actor, input, { ip }, { check: !saveAnyway, requestId });
    revalidatePath("/settings");
    if (!saved.check) return { message: `Saved without a check (key ending in ${saved.keyLast4}). Use “Test connection” once the API answers.` };
    const groups = saved.check.webhookGroupCount;
    return {
      message: `Connected and saved (key ending in ${saved.keyLast4}). The account sees ${plural(groups, "webhook group")}.`,
      data: { connected: true },
    };
  },
);
