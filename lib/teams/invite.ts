import "server-only";
import type { Actor } from "@/lib/access/actor";
import { mailInvitation } from "@/lib/teams/invitation-mail";
import { portalOrigin } from "@/lib/portal-origin";
import { createInvitation } from "./invitations";
import type { RequestContext } from "@/lib/access/guards";
import type { TeamRole } from "@/lib/access/roles";

/** An invitation just made, as the person who made it sees it once. */
export interface IssuedInvitation {
  /** Path of the link (`/invite/<token>`); the page adds its own origin. Shown once: only a hash is kept. */
  path: string;
  role: TeamRole;
  email: string | null;
  expiresAt: string;
  /** The link went out by mail to `email` (false without an address, or when mail is not set up). */
  mailed: boolean;
}

/**
 * An invitation to the actor's team (who may invite whom, and the recent re-authentication any
 * invitation needs, are checked by createInvitation), and, when it names an address, the mail
 * carrying its link on the portal's public origin.
 */
export async function inviteToTeam(actor: Actor, input: { role: TeamRole; email?: string | null }, context: RequestContext = {}): Promise<IssuedInvitation> {
  const { token, invitation } = await createInvitation(actor, input, context);
  const path = `/invite/${token}`;
  const mailed = invitation.email
    ? await mailInvitation({
        to: invitation.email,
        teamName: actor.teamName,
        inviterName: actor.name,
        role: invitation.role,
        link: `${await portalOrigin()}${path}`,
        expiresAt: invitation.expiresAt,
      })
    : false;
  return { path, role: invitation.role, email: invitation.email, expiresAt: invitation.expiresAt.toISOString(), mailed };
}
