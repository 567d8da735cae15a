"use server";

import { revalidatePath } from "next/cache";
import { endSession } from "@/lib/auth/sessions";
import { authedAction } from "@/lib/actions/pipeline";
import { endSessionSchema } from "./end-session.validation";

/** Ends one of the signed-in person's other sessions (with a recent password); that browser is signed out at its next request. */
export const endSessionAction = authedAction({ name: "auth.end-session", schema: endSessionSchema, recentAuth: "password" }, async ({ sessionId }, { actor, ip }) => {
  await endSession(actor, sessionId, { ip });
  revalidatePath("/account/sessions");
  return { message: "Session ended. That browser is signed out at its next request." };
});
