"use server";

import { redirect } from "next/navigation";
import { authedAction } from "@/lib/actions/pipeline";
import { acceptInvitation } from "@/lib/teams/invitations";
import { acceptInvitationSchema } from "./accept-invitation.validation";

/**
 * A signed-in person (alone in a team of their own) joins the invitation's team. Signed out, the
 * invitation page offers sign-up with the invitation instead (lib/actions/auth/sign-up.ts).
 */
export const acceptInvitationAction = authedAction({ name: "team.accept-invitation", schema: acceptInvitationSchema }, async ({ token }, { actor, ip }) => {
  await acceptInvitation(actor, token, { ip });
  redirect("/welcome");
});
