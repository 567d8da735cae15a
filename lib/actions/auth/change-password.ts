"use server";

import { prisma } from "@/lib/db/prisma";
import { requireActor } from "@/lib/auth/session";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { clientIp } from "@/lib/auth/request-meta";
import { auditByActor } from "@/lib/audit/log";
import { fieldErrorsOf, formDataToObject, type ActionState } from "@/lib/forms/action-state";
import { changePasswordSchema } from "./change-password.validation";

/**
 * Changes the password and ends every session (this one too): the form signs in again with the
 * new password, so only the person who knows it keeps a session.
 */
export async function changePasswordAction(formData: FormData): Promise<ActionState> {
  const actor = await requireActor();
  const parsed = changePasswordSchema.safeParse(formDataToObject(formData));
  if (!parsed.success) return { status: "error", fieldErrors: fieldErrorsOf(parsed.error) };

  const user = await prisma.user.findUniqueOrThrow({ where: { id: actor.userId } });
  if (!(await verifyPassword(user.passwordHash, parsed.data.currentPassword))) {
    return { status: "error", fieldErrors: { currentPassword: "That is not your current password." } };
  }
  const passwordHash = await hashPassword(parsed.data.newPassword);
  const ip = await clientIp();
  await prisma.$transaction(async (tx) => {
    await tx.user.update({ where: { id: actor.userId }, data: { passwordHash, sessionVersion: { increment: 1 } } });
    await tx.userSession.updateMany({ where: { userId: actor.userId, revokedAt: null }, data: { revokedAt: new Date() } });
    await auditByActor(actor, { action: "auth.password_changed", ip }, tx);
  });
  return { status: "success", message: "Password changed. Other sessions have been signed out." };
}
