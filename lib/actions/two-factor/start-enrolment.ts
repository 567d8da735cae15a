"use server";

import { revalidatePath } from "next/cache";
import { startEnrolment } from "@/lib/auth/two-factor";
import { authedAction, NO_INPUT } from "@/lib/actions/pipeline";

/**
 * A new secret waiting for its first code; the page then shows its QR code and text. Needs a recent
 * password: a stale cookie must not put its holder's app on the account.
 */
export const startTwoFactorEnrolmentAction = authedAction(
  { name: "two-factor.start-enrolment", schema: NO_INPUT, allowTwoFactorSetup: true, recentAuth: "password" },
  async (_input, { actor, ip }) => {
    await startEnrolment(actor, { ip });
    revalidatePath("/account");
    revalidatePath("/two-factor/setup");
  },
);
