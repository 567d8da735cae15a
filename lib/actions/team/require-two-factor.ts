"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { setTeamTwoFactorRequirement } from "@/lib/teams/two-factor-requirement";
import { requireTwoFactorSchema } from "./require-two-factor.validation";

/** Owners only (checked by the data function): every member must use two-factor sign-in. */
export const requireTwoFactorAction = authedAction(
  { name: "team.require-two-factor", schema: requireTwoFactorSchema, recentAuth: true },
  async ({ required }, { actor, ip }) => {
    await setTeamTwoFactorRequirement(actor, required, { ip });
    revalidatePath("/team");
    return { message: required ? "Two-factor sign-in is now required for everyone in the team." : "Two-factor sign-in is no longer required." };
  },
);
