"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { createInvitation } from "@/lib/teams/invitations";
import { mailInvitation } from "@/lib/teams/invitation-mail";
import { portalOrigin } from "@/lib/portal-origin";
import { createInvitationSchema } from "./create-invitation.validation";

export type CreatedInvitationData = {
  /** Path of the link (`/invite/<token>`); the page adds its own origin. Shown once: only a hash is kept. */
  path: string;
  role: "OWNER" | "ADMIN" | "MEMBER";
  email: string | null;
  expiresAt: string;
  mailed: boolean;
};

export const createInvitationAction = authedAction(
  // An invitation of any role hands out a lasting membership: a stale cookie must not make itself one.
  { name: "team.create-invitation", schema: createInvitationSchema, recentAuth: true },
  async ({ role, email }, { actor, ip }): Promise<{ message: string; data: CreatedInvitationData }> => {
    const { token, invitation } = await createInvitation(actor, { role, email }, { ip });
    revalidatePath("/team");
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
    return {
      message: mailed
        ? `Invitation created and mailed to ${invitation.email}. You can also copy the link now: it is shown only once.`
        : "Invitation created. Copy the link now: it is shown only once.",
      data: {
        path,
        role: invitation.role,
        email: invitation.email,
        expiresAt: invitation.expiresAt.toISOString(),
        mailed,
      },
    };
  },
);
