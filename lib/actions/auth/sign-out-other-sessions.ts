"use server";

import { revalidatePath } from "next/cache";
import { endOtherSessions } from "@/lib/auth/sessions";
import { authedAction, NO_INPUT } from "@/lib/actions/pipeline";
import { plural } from "@/lib/text/plural";

/** Ends every session of the signed-in person except this one: with a recent password (lib/auth/sessions.ts says why). */
export const signOutOtherSessionsAction = authedAction(
  { name: "auth.sign-out-other-sessions", schema: NO_INPUT, recentAuth: "password" },
  async (_input, { actor, ip }) => {
    const ended = await endOtherSessions(actor, { ip });
    revalidatePath("/account/sessions");
    return { message: ended === 0 ? "No other session was open." : `Signed out of ${plural(ended, "other session")}.` };
  },
);
