"use server";

import { regenerateRecoveryCodes } from "@/lib/auth/two-factor";
import { authedAction } from "@/lib/actions/pipeline";
import { codeSchema } from "./code.validation";

/** Ten new recovery codes for a current code and a recent password; the old ones stop working. Shown once. */
export const regenerateRecoveryCodesAction = authedAction<typeof codeSchema, { recoveryCodes: string[] }>(
  { name: "two-factor.regenerate-recovery-codes", schema: codeSchema, recentAuth: "password" },
  async ({ code }, { actor, ip }) => {
    const recoveryCodes = await regenerateRecoveryCodes(actor, code, { ip });
    return { message: "New recovery codes made; the old ones no longer work.", data: { recoveryCodes } };
  },
);
