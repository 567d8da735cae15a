"use server";

import { reauthenticate } from "@/lib/auth/reauth";
import { authedAction } from "@/lib/actions/pipeline";
import { reauthenticateSchema } from "./reauthenticate.validation";

/**
 * "Confirm it's you": the password, or a code for two-factor people (both, where a change to who
 * controls the account asks for the password); this session is then recent. Open on the enrolment
 * page too, which asks for the password before showing a secret.
 */
export const reauthenticateAction = authedAction(
  { name: "auth.reauthenticate", schema: reauthenticateSchema, allowTwoFactorSetup: true },
  async (input, { actor, ip }) => {
    await reauthenticate(actor, input, { ip });
    return { message: "Confirmed." };
  },
);
