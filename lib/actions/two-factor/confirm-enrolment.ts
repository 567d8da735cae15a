"use server";

import { confirmEnrolment } from "@/lib/auth/two-factor";
import { authedAction } from "@/lib/actions/pipeline";
import { codeSchema } from "./code.validation";

/**
 * The first code from the app turns two-factor on. Answers the ten recovery codes, the only time
 * they are shown (the form shows them until the person says they saved them, then refreshes).
 */
export const confirmTwoFactorEnrolmentAction = authedAction<typeof codeSchema, { recoveryCodes: string[] }>(
  { name: "two-factor.confirm-enrolment", schema: codeSchema, allowTwoFactorSetup: true },
  async ({ code }, { actor, ip }) => {
    const recoveryCodes = await confirmEnrolment(actor, code, { ip });
    return { message: "Two-factor sign-in is on.", data: { recoveryCodes } };
  },
);
