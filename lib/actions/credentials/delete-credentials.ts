"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { deleteCredential } from "@/lib/credentials/store";
import { pauseTrackersOfRunner } from "@/lib/history/trackers";
import { deleteCredentialsSchema } from "./delete-credentials.validation";

/** Deletes the actor's own credentials (another member's id, crafted, is refused); trackers they ran pause and say why. */
export const deleteCredentialsAction = authedAction({ name: "credentials.delete", schema: deleteCredentialsSchema, recentAuth: true }, async (input, { actor, ip }) => {
  await deleteCredential(actor, input, { ip });
  await pauseTrackersOfRunner(actor.userId, actor.email);
  revalidatePath("/settings");
  return { message: "Your API credentials were deleted." };
});
