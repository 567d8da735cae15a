"use server";

import { redirect } from "next/navigation";
import { requireActor } from "@/lib/auth/session";
import { clientIp } from "@/lib/auth/request-meta";
import { fieldErrorsOf, formDataToObject, type ActionState } from "@/lib/forms/action-state";
import { acceptInvitation } from "@/lib/teams/invitations";
import { errorState } from "@/lib/teams/action-errors";
import { acceptInvitationSchema } from "./accept-invitation.validation";

/** A signed-in person (alone in a team of their own) joins the invitation's team. */
export async function acceptInvitationAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  const actor = await requireActor();
  const parsed = acceptInvitationSchema.safeParse(formDataToObject(formData));
  if (!parsed.success) return { status: "error", fieldErrors: fieldErrorsOf(parsed.error) };
  try {
    await acceptInvitation(actor, parsed.data.token, { ip: await clientIp() });
  } catch (error) {
    return errorState(error, "team.accept-invitation");
  }
  redirect("/team?joined=1");
}
