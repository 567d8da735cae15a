"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { saveCredential } from "@/lib/credentials/store";
import { saveCredentialsSchema } from "./save-credentials.validation";

/** Saves the actor's own credentials. The answer never carries the key or the secret back. */
export const saveCredentialsAction = authedAction({ name: "credentials.save", schema: saveCredentialsSchema, recentAuth: true }, async (input, { actor, ip }) => {
  const saved = await saveCredential(actor, input, { ip });
  revalidatePath("/settings");
  return { message: `Saved (key ending in ${saved.keyLast4}). Use “Test connection” to check them.` };
});
