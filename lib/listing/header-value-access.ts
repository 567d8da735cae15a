import "server-only";
import { isRecentlyAuthenticated, ReauthRequired } from "@/lib/access/recent-auth";
import { mustEnrolTwoFactor, type Actor } from "@/lib/access/actor";
import { SafeError } from "@/lib/errors";

/**
 * Who may see webhook header values (third parties' API keys), the one rule for every way they leave
 * the portal: an export "with header values" (app/api/export) and "Reveal" on a group's page
 * (./reveal-header.ts). Any member of the team, reading their own EMS account with their own
 * credential, enrolled in two-factor when the team requires it, and whose session proved who is
 * using it within AUTH_REAUTH_WINDOW_SECONDS. Each use is audited by its caller, never with the value.
 */
type HeaderValueReader = Pick<Actor, "reauthenticatedAt" | "teamRequiresTwoFactor" | "twoFactorEnabled">;

export function mayReadHeaderValues(actor: HeaderValueReader, now: number = Date.now()): boolean {
  return !mustEnrolTwoFactor(actor) && isRecentlyAuthenticated(actor, now);
}

/** Throws unless `actor` may see header values now: `ReauthRequired` asks for the password (or a code) again. */
export function assertMayReadHeaderValues(actor: HeaderValueReader): void {
  if (mustEnrolTwoFactor(actor)) throw new SafeError("Your team requires two-factor sign-in: set it up first.", "two_factor_required");
  if (!mayReadHeaderValues(actor)) throw new ReauthRequired();
}
