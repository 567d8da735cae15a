"use server";

import { revalidatePath } from "next/cache";
import { requireActor } from "@/lib/auth/session";
import { clientIp } from "@/lib/auth/request-meta";
import { fieldErrorsOf, formDataToObject, type ActionState } from "@/lib/forms/action-state";
import { deleteCredential } from "@/lib/credentials/store";
import { errorState } from "@/lib/teams/action-errors";
import { deleteCredentialsSchema } from "./delete-credentials.validation";

export async function deleteCredentialsAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  const actor = await requireActor();
  const parsed = deleteCredentialsSchema.safeParse(formDataToObject(formData));
  if (!parsed.success) return { status: "error", fieldErrors: fieldErrorsOf(parsed.error) };
  try {
    await deleteCredential(actor, parsed.data, { ip: await clientIp() });
    revalidatePath("/settings");
    return { status: "success", message: "Your API credentials were deleted." };
  } catch (error) {
    return errorState(error, "credentials.delete");
  }
}
