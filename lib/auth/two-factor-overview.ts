import "server-only";
import { hasRecentPassword } from "@/lib/access/recent-auth";
import type { Actor } from "@/lib/access/actor";
import { pendingEnrolment, twoFactorStatus, type Enrolment, type TwoFactorStatus } from "./two-factor";

/** What the account page's two-factor section shows: the status, and a pending set-up's secret when it may be shown. */
export interface TwoFactorOverview {
  status: TwoFactorStatus;
  enrolment: Enrolment | null;
}

/** The data function of the account page's two-factor section (components/two-factor/two-factor-section.tsx). */
export async function twoFactorOverview(actor: Actor): Promise<TwoFactorOverview> {
  const status = await twoFactorStatus(actor.userId);
  // The pending secret is shown only to a session with a recent password; another continues the
  // set-up by confirming its password, which starts it again with a new secret.
  const enrolment = status.pending && hasRecentPassword(actor) ? await pendingEnrolment(actor) : null;
  return { status, enrolment };
}
