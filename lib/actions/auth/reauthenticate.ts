"use server";

import { reauthenticate } from "@/lib/auth/reauth";
import { authedAction } from "@/lib/actions/pipeline";
import { reauthenticateSchema } from "./reauthenticate.validation";

/** "Confirm it's you": the password, or a code for two-factor people; this session is then recent. */
export const reauthenticateAction = authedAction({ name: "auth.reauthenticate", schema: reauthenticateSchema }, async (input, { actor, ip }) => {
  await reauthenticate(actor, input, { ip });
  return { message: "Confirmed." };
});
