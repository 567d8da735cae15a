"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { revokeInvitation } from "@/lib/teams/invitations";
import { revokeInvitationSchema } from "./revoke-invitation.validation";

export const revokeInvitationAction = authedAction(
  { name: "team.revoke-invitation", schema: revokeInvitationSchema, invalidMessage: "That invitation could not be found." },
  async ({ invitationId }, { actor, ip }) => {
    await revokeInvitation(actor, invitationId, { ip });
    revalidatePath("/team");
    return { message: "Invitation withdrawn: its link no longer works." };
  },
);
