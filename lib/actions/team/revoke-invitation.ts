"use server";

import { revalidatePath } from "next/cache";
import { requireActor } from "@/lib/auth/session";
import { clientIp } from "@/lib/auth/request-meta";
import { fieldErrorsOf, formDataToObject, type ActionState } from "@/lib/forms/action-state";
import { revokeInvitation } from "@/lib/teams/invitations";
import { errorState } from "@/lib/teams/action-errors";
import { revokeInvitationSchema } from "./revoke-invitation.validation";

export async function revokeInvitationAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  const actor = await requireActor();
  const parsed = revokeInvitationSchema.safeParse(formDataToObject(formData));
  if (!parsed.success) return { status: "error", fieldErrors: fieldErrorsOf(parsed.error), message: "That invitation could not be found." };
  try {
    await revokeInvitation(actor, parsed.data.invitationId, { ip: await clientIp() });
    revalidatePath("/team");
    return { status: "success", message: "Invitation withdrawn: its link no longer works." };
  } catch (error) {
    return errorState(error, "team.revoke-invitation");
  }
}
