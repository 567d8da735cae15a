"use server";

import { confirmEnrolment } from "@/lib/auth/two-factor";
import { authedAction } from "@/lib/actions/pipeline";
import { codeSchema } from "./code.validation";
import { plural, pluralWord } from "@/lib/text/plural";

/**
 * The first code from the app turns two-factor on (with a recent password) and ends the person's
 * other sessions. Answers the ten recovery codes, the only time they are shown (the form shows them
 * until the person says they saved them, then refreshes).
 */
export const confirmTwoFactorEnrolmentAction = authedAction<typeof codeSchema, { recoveryCodes: string[] }>(
  { name: "two-factor.confirm-enrolment", schema: codeSchema, allowTwoFactorSetup: true, recentAuth: "password" },
  async ({ code }, { actor, ip }) => {
    const { recoveryCodes, otherSessionsEnded } = await confirmEnrolment(actor, code, { ip });
    return { message: `Two-factor sign-in is on. ${otherSessionsSignedOut(otherSessionsEnded)}`, data: { recoveryCodes } };
  },
);

function otherSessionsSignedOut(count: number): string {
  if (count === 0) return "No other session was open.";
  return `Your ${plural(count, "other session")} ${pluralWord(count, "was", "were")} signed out.`;
}
