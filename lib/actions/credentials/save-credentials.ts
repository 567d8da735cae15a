"use server";

import { revalidatePath } from "next/cache";
import { requireActor } from "@/lib/auth/session";
import { clientIp } from "@/lib/auth/request-meta";
import { fieldErrorsOf, formDataToObject, type ActionState } from "@/lib/forms/action-state";
import { saveCredential } from "@/lib/credentials/store";
import { errorState } from "@/lib/teams/action-errors";
import { saveCredentialsSchema } from "./save-credentials.validation";

/** Saves the actor's own credentials. The answer never carries the key or the secret back. */
export async function saveCredentialsAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  const actor = await requireActor();
  const parsed = saveCredentialsSchema.safeParse(formDataToObject(formData));
  if (!parsed.success) return { status: "error", fieldErrors: fieldErrorsOf(parsed.error) };
  try {
    const saved = await saveCredential(actor, parsed.data, { ip: await clientIp() });
    revalidatePath("/settings");
    return { status: "success", message: `Saved (key ending in ${saved.keyLast4}). Use “Test connection” to check them.` };
  } catch (error) {
    return errorState(error, "credentials.save");
  }
}
