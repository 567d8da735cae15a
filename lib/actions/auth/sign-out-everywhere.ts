"use server";

import { signOutEverywhere } from "@/lib/auth/sessions";
import { authedAction, NO_INPUT } from "@/lib/actions/pipeline";

/** Ends every session of the signed-in person, this one included, at their next request. */
export const signOutEverywhereAction = authedAction({ name: "auth.sign-out-everywhere", schema: NO_INPUT, allowTwoFactorSetup: true }, async (_input, { actor, ip }) => {
  await signOutEverywhere(actor, { ip });
});
