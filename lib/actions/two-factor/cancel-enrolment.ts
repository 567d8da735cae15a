"use server";

import { revalidatePath } from "next/cache";
import { cancelEnrolment } from "@/lib/auth/two-factor";
import { authedAction, NO_INPUT } from "@/lib/actions/pipeline";

export const cancelTwoFactorEnrolmentAction = authedAction(
  { name: "two-factor.cancel-enrolment", schema: NO_INPUT, allowTwoFactorSetup: true },
  async (_input, { actor }) => {
    await cancelEnrolment(actor);
    revalidatePath("/account");
    revalidatePath("/two-factor/setup");
  },
);
