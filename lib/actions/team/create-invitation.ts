"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { requireActor } from "@/lib/auth/session";
import { clientIp } from "@/lib/auth/request-meta";
import { fieldErrorsOf, formDataToObject, type ActionState } from "@/lib/forms/action-state";
import { createInvitation } from "@/lib/teams/invitations";
import { authEnv } from "@/lib/env";
import { mailInvitation } from "@/lib/mail/invitation-mail";
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
      status: "success",
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
  } catch (error) {
    return errorState(error, "team.create-invitation");
  }
}

/** The portal's public origin for links in mail: NEXTAUTH_URL, else what the request came to. */
async function portalOrigin(): Promise<string> {
  const { NEXTAUTH_URL } = authEnv();
  if (NEXTAUTH_URL) return NEXTAUTH_URL.replace(/\/$/, "");
  const h = await headers();
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? "localhost:3000";
  const proto = h.get("x-forwarded-proto") ?? (host.startsWith("localhost") || host.startsWith("127.0.0.1") ? "http" : "https");
  return `${proto}://${host}`;
}
