import "server-only";
import { prisma } from "@/lib/db/prisma";
import { auditByActor } from "@/lib/audit/log";
import { FieldError } from "@/lib/errors";
import { formatSeconds } from "@/lib/duration";
import { hashPassword, verifyPassword } from "./password";
import { newPasswordSchema } from "./password-policy";
import type { Actor } from "@/lib/access/actor";
import { endAllSessions } from "./sessions";
import { beginPasswordAttempt, passwordAttemptSucceeded } from "./throttle";

/**
 * Changes the actor's password and ends every session of theirs, this one too: only someone who
 * knows the new password keeps one (the form signs this browser in again with it). Throws
 * `FieldError` for a wrong current password or a new one the policy refuses.
 *
 * The current password is a guess like a sign-in (someone holding a stolen session would try it
 * here): the same throttle, counted together with sign-ins (lib/auth/throttle.ts).
 */
export async function changePassword(actor: Actor, input: { currentPassword: string; newPassword: string }, meta: { ip: string }): Promise<void> {
  const attempt = await beginPasswordAttempt(actor.email, meta.ip);
  if (!attempt.allowed) {
    throw new FieldError("currentPassword", `Too many wrong passwords. Try again in ${formatSeconds(attempt.retryAfterSeconds)}.`, "throttled");
  }
  const user = await prisma.user.findUniqueOrThrow({ where: { id: actor.userId }, select: { passwordHash: true } });
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw new FieldError("currentPassword", "That is not your current password.", "wrong_password");
  }
  await passwordAttemptSucceeded(attempt.attemptId);
  const policy = newPasswordSchema.safeParse(input.newPassword);
  if (!policy.success) throw new FieldError("newPassword", policy.error.issues[0]?.message ?? "Choose another password.", "weak_password");
  if (input.newPassword === input.currentPassword) {
    throw new FieldError("newPassword", "Choose a password different from the current one.", "same_password");
  }
  const passwordHash = await hashPassword(input.newPassword);
  await prisma.$transaction(async (tx) => {
    await tx.user.update({ where: { id: actor.userId }, data: { passwordHash } });
    await endAllSessions(tx, actor.userId);
    await auditByActor(actor, { action: "auth.password_changed", ip: meta.ip }, tx);
  });
}
