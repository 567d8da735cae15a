import type { Role } from "@/lib/generated/prisma/client";

/**
 * The signed-in person as every data function receives it: who they are, their team and role, and
 * what this session has proved. lib/auth/session.ts builds it from the session cookie; everything
 * else takes it as its first argument and checks access itself.
 */

export interface Actor {
  userId: string;
  email: string;
  name: string;
  sessionId: string;
  teamId: string;
  teamName: string;
  role: Role;
  /** Two-factor sign-in is on for this person (an enrolment not yet confirmed does not count). */
  twoFactorEnabled: boolean;
  /** An owner made two-factor compulsory for the team: without it, only enrolment is open. */
  teamRequiresTwoFactor: boolean;
  /** When this session last proved who is using it: its sign-in, or a re-authentication since. */
  reauthenticatedAt: Date;
  /** When this session last proved the password itself (lib/auth/reauth.ts `hasRecentPassword`). */
  passwordVerifiedAt: Date;
  /**
   * What the last health check of this person's current credential found, unmuted (the
   * navigation's counts); null before the first check, or when the credential changed since.
   */
  healthCounts?: HealthCounts | null;
  /**
   * The team tracks an account's change history (lib/history): read in the same statement, so a
   * listing of a team that tracks nothing spends no round trip on its "changed" marks.
   */
  teamTracksHistory?: boolean;
  /**
   * The person dismissed the first-run checklist (lib/onboarding): read in the same statement, so the
   * landing page of everyone past their first days spends no round trip on it.
   */
  checklistDismissed?: boolean;
  /**
   * Plans of the team sent for review by someone else, which this owner or admin may approve (0 for
   * members): the navigation's count, read in the same statement.
   */
  plansToReview?: number;
  /**
   * Unread items of this person's inbox (lib/inbox): the navigation's count, read in the same
   * statement by the (userId, teamId, readAt) index.
   */
  inboxUnread?: number;
}

export interface HealthCounts {
  errors: number;
  warnings: number;
  notices: number;
}

/** Where a member of a team that requires two-factor enrols before anything else. */
export const TWO_FACTOR_SETUP_PATH = "/two-factor/setup";

/** True when the team requires two-factor and this person has not turned it on yet. */
export function mustEnrolTwoFactor(actor: Pick<Actor, "teamRequiresTwoFactor" | "twoFactorEnabled">): boolean {
  return actor.teamRequiresTwoFactor && !actor.twoFactorEnabled;
}
