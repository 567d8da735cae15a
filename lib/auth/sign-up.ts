import "server-only";
import { prisma } from "@/lib/db/prisma";
import { audit } from "@/lib/audit/log";
import { FieldError } from "@/lib/errors";
import { redeemInvitation } from "@/lib/teams/invitations";
import { hashPassword } from "./password";
import { newPasswordSchema } from "./password-policy";
import { ensureTeamFor } from "./personal-team";

export interface SignUpInput {
  name: string;
  email: string;
  password: string;
  /** The token of an invitation link: the new person joins that team instead of starting one. */
  invite?: string;
}

export const EMAIL_TAKEN_MESSAGE = "An account with this email already exists. Sign in instead.";

/**
 * Creates an account. Without an invitation the person starts a team of their own and owns it;
 * with one they join that team with the invited role (or nothing is created). Signing in is the
 * caller's next step (next-auth). Throws `FieldError` for a taken email or a password the policy
 * refuses, and `SafeError` for an invitation that cannot be used.
 */
export async function signUp(input: SignUpInput, meta: { ip: string }): Promise<{ userId: string; teamId: string }> {
  const name = input.name.trim();
  const email = input.email.trim().toLowerCase();
  const policy = newPasswordSchema.safeParse(input.password);
  if (!policy.success) throw new FieldError("password", policy.error.issues[0]?.message ?? "Choose another password.", "weak_password");

  const existing = await prisma.user.findUnique({ where: { email }, select: { id: true } });
  if (existing) throw new FieldError("email", EMAIL_TAKEN_MESSAGE, "email_taken");

  const passwordHash = await hashPassword(input.password);
  try {
    return await prisma.$transaction(async (tx) => {
      const user = await tx.user.create({ data: { name, email, passwordHash } });
      const { teamId } = input.invite
        ? await redeemInvitation(tx, { token: input.invite, userId: user.id, email, ip: meta.ip })
        : await ensureTeamFor(user, tx);
      await audit({ action: "auth.sign_up", teamId, actorId: user.id, actorEmail: email, ip: meta.ip, metadata: { viaInvitation: Boolean(input.invite) } }, tx);
      return { userId: user.id, teamId };
    });
  } catch (error) {
    // A concurrent sign-up with the same email loses the unique-constraint race.
    if ((error as { code?: string }).code === "P2002") throw new FieldError("email", EMAIL_TAKEN_MESSAGE, "email_taken");
    throw error;
  }
}
