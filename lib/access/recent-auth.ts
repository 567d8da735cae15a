import "server-only";
import { SafeError } from "@/lib/errors";
import { reauthEnv } from "@/lib/env";
import type { ReauthProof } from "@/lib/forms/action-state";
import { REAUTH_PASSWORD_MESSAGE, REAUTH_REQUIRED_MESSAGE } from "./reauth-shared";
import type { Actor } from "./actor";

/**
 * Recent re-authentication: sensitive actions (saving, replacing or deleting credentials, role
 * changes, invitations, removing members, requiring two-factor for the team, exporting or revealing
 * header values) need this session to have proved who is using it within AUTH_REAUTH_WINDOW_SECONDS
 * (10 minutes): by signing in, or by re-authenticating since (password; a code for two-factor
 * people). Recorded on the session row (`UserSession.reauthenticatedAt`), so it is per browser, and
 * checked inside each action (lib/actions/pipeline.ts, `recentAuth`) and route, never by the page alone.
 *
 * What changes who controls the account (enrolling in two-factor, new recovery codes, turning
 * two-factor off, ending other sessions) needs more: a recent *password* (`recentAuth: "password"`,
 * `UserSession.passwordVerifiedAt`), and for a two-factor person a recent code as well. A code alone
 * never counts there: otherwise a stale cookie that enrolled the attacker's own app would confirm
 * itself with that app's codes. For the same reason a code from a factor enrolled after this
 * session's last password proof does not re-authenticate at all until the password is given again.
 */

/** Refused for want of a recent re-authentication: the form asks for it and retries. */
export class ReauthRequired extends SafeError {
  readonly reauthRequired: ReauthProof;
  constructor(proof: ReauthProof = "any", message: string = REAUTH_REQUIRED_MESSAGE) {
    super(message, "reauth_required");
    this.name = "ReauthRequired";
    this.reauthRequired = proof;
  }
}

export function isReauthRequired(error: unknown): error is ReauthRequired {
  return error instanceof ReauthRequired;
}

export function reauthWindowSeconds(): number {
  return reauthEnv().AUTH_REAUTH_WINDOW_SECONDS;
}

const withinWindow = (at: Date, now: number) => now - at.getTime() <= reauthWindowSeconds() * 1000;

export function isRecentlyAuthenticated(actor: Pick<Actor, "reauthenticatedAt">, now: number = Date.now()): boolean {
  return withinWindow(actor.reauthenticatedAt, now);
}

/**
 * The password was proved within the window, and (for a two-factor person) so was the factor: a
 * password re-authentication of a two-factor person moves only `passwordVerifiedAt`, a code only
 * `reauthenticatedAt`, so both must be recent.
 */
export function hasRecentPassword(actor: Pick<Actor, "reauthenticatedAt" | "passwordVerifiedAt">, now: number = Date.now()): boolean {
  return withinWindow(actor.passwordVerifiedAt, now) && withinWindow(actor.reauthenticatedAt, now);
}

/** Throws ReauthRequired unless this session re-authenticated within the window. */
export function assertRecentlyAuthenticated(actor: Pick<Actor, "reauthenticatedAt">): void {
  if (!isRecentlyAuthenticated(actor)) throw new ReauthRequired("any");
}

/** Throws ReauthRequired("password") unless this session proved its password within the window. */
export function assertRecentPassword(actor: Pick<Actor, "reauthenticatedAt" | "passwordVerifiedAt">): void {
  if (!hasRecentPassword(actor)) throw new ReauthRequired("password", REAUTH_PASSWORD_MESSAGE);
}

/** The check a `recentAuth` setting asks for. */
export function assertRecentProof(actor: Pick<Actor, "reauthenticatedAt" | "passwordVerifiedAt">, proof: ReauthProof): void {
  if (proof === "password") assertRecentPassword(actor);
  else assertRecentlyAuthenticated(actor);
}
