"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { inviteToTeam, type IssuedInvitation } from "@/lib/teams/invite";
import { createInvitationSchema } from "./create-invitation.validation";

export type CreatedInvitationData = IssuedInvitation;

export const createInvitationAction = authedAction(
  // An invitation of any role hands out a lasting membership: a stale cookie must not make itself one.
  { name: "team.create-invitation", schema: createInvitationSchema, recentAuth: true },
  async ({ role, email }, { actor, ip }): Promise<{ message: string; data: CreatedInvitationData }> => {
    const invitation = await inviteToTeam(actor, { role, email }, { ip });
    revalidatePath("/team");
    return {
      message: invitation.mailed
        ? `Invitation created and mailed to ${invitation.email}. You can also copy the link now: it is shown only once.`
        : "Invitation created. Copy the link now: it is shown only once.",
      data: invitation,
    };
  },
);
