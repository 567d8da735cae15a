"use server";

import { revalidatePath } from "next/cache";
import { requireActor } from "@/lib/auth/session";
import { clientIp } from "@/lib/auth/request-meta";
import { fieldErrorsOf, formDataToObject, type ActionState } from "@/lib/forms/action-state";
import { createInvitation } from "@/lib/teams/invitations";
import { errorState } from "@/lib/teams/action-errors";
import { createInvitationSchema } from "./create-invitation.validation";

export type CreatedInvitationData = {
  /** Path of the link (`/invite/<token>`); the page adds its own origin. Shown once: only a hash is kept. */
  path: string;
  role: "OWNER" | "ADMIN" | "MEMBER";
  email: string | null;
  expiresAt: string;
  mailed: boolean;
};

export async function createInvitationAction(_previous: ActionState<CreatedInvitationData>, formData: FormData): Promise<ActionState<CreatedInvitationData>> {
  const actor = await requireActor();
  const parsed = createInvitationSchema.safeParse(formDataToObject(formData));
  if (!parsed.success) return { status: "error", fieldErrors: fieldErrorsOf(parsed.error) };
  try {
    const { token, invitation } = await createInvitation(actor, { role: parsed.data.role, email: parsed.data.email }, { ip: await clientIp() });
    revalidatePath("/team");
    return {
      status: "success",
      message: "Invitation created. Copy the link now: it is shown only once.",
      data: {
        path: `/invite/${token}`,
        role: invitation.role,
        email: invitation.email,
        expiresAt: invitation.expiresAt.toISOString(),
        // No mail transport is installed; the link is shared by copying it (see the team page).
        mailed: false,
      },
    };
  } catch (error) {
    return errorState(error, "team.create-invitation");
  }
}
