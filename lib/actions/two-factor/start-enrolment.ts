"use server";

import { revalidatePath } from "next/cache";
import { startEnrolment } from "@/lib/auth/two-factor";
import { authedAction, NO_INPUT } from "@/lib/actions/pipeline";

/** A new secret waiting for its first code; the page then shows its QR code and text. */
export const startTwoFactorEnrolmentAction = authedAction(
  { name: "two-factor.start-enrolment", schema: NO_INPUT, allowTwoFactorSetup: true },
  async (_input, { actor }) => {
    await startEnrolment(actor);
    revalidatePath("/account");
    revalidatePath("/two-factor/setup");
  },
);
