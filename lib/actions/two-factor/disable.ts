"use server";

import { revalidatePath } from "next/cache";
import { disableTwoFactor } from "@/lib/auth/two-factor";
import { authedAction } from "@/lib/actions/pipeline";
import { codeSchema } from "./code.validation";

/** Turns two-factor off: needs a recent password (and code) in this session, and a current code. */
export const disableTwoFactorAction = authedAction({ name: "two-factor.disable", schema: codeSchema, recentAuth: "password" }, async ({ code }, { actor, ip }) => {
  await disableTwoFactor(actor, code, { ip });
  revalidatePath("/account");
  return { message: "Two-factor sign-in is off." };
});
