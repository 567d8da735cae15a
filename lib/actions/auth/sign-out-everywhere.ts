"use server";

import { signOutEverywhere } from "@/lib/auth/sessions";
import { authedAction } from "@/lib/actions/pipeline";
import { signOutEverywhereSchema } from "./sign-out-everywhere.validation";

/** Ends every session of the signed-in person, this one included, at their next request. */
export const signOutEverywhereAction = authedAction({ name: "auth.sign-out-everywhere", schema: signOutEverywhereSchema }, async (_input, { actor, ip }) => {
  await signOutEverywhere(actor, { ip });
});
