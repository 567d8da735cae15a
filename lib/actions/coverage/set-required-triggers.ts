"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { setRequiredTriggers } from "@/lib/setup/requirements";
import { forgetTeamHealthCounts } from "@/lib/health/report";
import { setRequiredTriggersSchema } from "./set-required-triggers.validation";
import { plural } from "@/lib/text/plural";

/** Owners and admins: the triggers every live event must send. */
export const setRequiredTriggersAction = authedAction(
  { name: "coverage.set-required-triggers", schema: setRequiredTriggersSchema },
  async ({ triggers }, { actor, ip }) => {
    const saved = await setRequiredTriggers(actor, triggers, { ip });
    await forgetTeamHealthCounts(actor);
    revalidatePath("/coverage");
    revalidatePath("/health");
    return { message: saved.length === 0 ? "No trigger is required now." : `Saved: ${plural(saved.length, "required trigger")}.` };
  },
);
