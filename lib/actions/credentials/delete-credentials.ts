"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { deleteCredential } from "@/lib/credentials/store";
import { deleteCredentialsSchema } from "./delete-credentials.validation";

/** Deletes the actor's own credentials; another member's id (crafted) is refused. */
export const deleteCredentialsAction = authedAction({ name: "credentials.delete", schema: deleteCredentialsSchema, recentAuth: true }, async (input, { actor, ip }) => {
  await deleteCredential(actor, input, { ip });
  revalidatePath("/settings");
  return { message: "Your API credentials were deleted." };
});
