"use server";

import { prisma } from "@/lib/db/prisma";
import { hashPassword } from "@/lib/auth/password";
import { ensureTeamFor } from "@/lib/auth/personal-team";
import { clientIp } from "@/lib/auth/request-meta";
import { audit } from "@/lib/audit/log";
import { redeemInvitation } from "@/lib/teams/invitations";
import { isSafeError, userMessageOf } from "@/lib/errors";
import { fieldErrorsOf, formDataToObject, type ActionState } from "@/lib/forms/action-state";
import { signUpSchema } from "./sign-up.validation";

/**
 * Creates an account. Without an invitation the person starts a team of their own and owns it;
 * with one they join that team with the invited role. The form then signs in with next-auth.
 */
export async function signUpAction(formData: FormData): Promise<ActionState> {
  const parsed = signUpSchema.safeParse(formDataToObject(formData));
  if (!parsed.success) return { status: "error", fieldErrors: fieldErrorsOf(parsed.error) };
  const { name, email, password, invite } = parsed.data;

  const existing = await prisma.user.findUnique({ where: { email }, select: { id: true } });
  if (existing) return { status: "error", fieldErrors: { email: "An account with this email already exists. Sign in instead." } };

  const passwordHash = await hashPassword(password);
  const ip = await clientIp();
  try {
    await prisma.$transaction(async (tx) => {
      const user = await tx.user.create({ data: { name, email, passwordHash } });
      const { teamId } = invite ? await redeemInvitation(tx, { token: invite, userId: user.id, email }) : await ensureTeamFor(user, tx);
      await audit({ action: "auth.sign_up", teamId, actorId: user.id, actorEmail: email, ip, metadata: { viaInvitation: Boolean(invite) } }, tx);
    });
  } catch (error) {
    if (isSafeError(error)) return { status: "error", fieldErrors: invite ? { invite: error.message } : undefined, message: error.message };
    // A concurrent sign-up with the same email loses the unique-constraint race.
    if ((error as { code?: string }).code === "P2002") return { status: "error", fieldErrors: { email: "An account with this email already exists. Sign in instead." } };
    console.error(JSON.stringify({ level: "error", msg: "sign-up failed", error: String(error) }));
    return { status: "error", message: userMessageOf(error) };
  }
  return { status: "success" };
}
