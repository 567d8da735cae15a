import "server-only";
import { prisma, type TransactionClient } from "@/lib/db/prisma";
import { audit } from "@/lib/audit/log";
import { formatSeconds } from "@/lib/duration";
import { signUpEnv } from "@/lib/env";
import { FieldError, SafeError } from "@/lib/errors";
import { redeemInvitation } from "@/lib/teams/invitations";
import { lockTeam } from "@/lib/access/guards";
import { hashPassword } from "./password";
import { newPasswordSchema } from "./password-policy";
import { ensureTeamFor } from "@/lib/teams/personal-team";
import { decideWithoutInvitation, dependsOnFirstTeam, lockAndFindOldestTeam, oldestTeamId, signUpMode, type Placement } from "./sign-up-policy";
import { beginSignUp } from "./throttle";

export interface SignUpInput {
  name: string;
  email: string;
  password: string;
  /** The token of an invitation link: the new person joins that team instead of starting one. */
  invite?: string;
}

/**
 * The answer when the address already has an account. It does not say so: the same words fit
 * anyone who cannot use the address, and the answer takes as long as creating an account (the
 * password is hashed either way), so neither the text nor the time tells which addresses exist.
 */
export const SIGN_UP_REFUSED_MESSAGE = "We could not create an account with this email address. If you already have one, sign in instead.";

/**
 * Creates an account, as SIGNUP_MODE allows (lib/auth/sign-up-policy.ts): with an invitation the
 * person joins that team with the invited role; without one they start a team of their own, or
 * join the portal's team (`domain:` mode), or are refused. Signing in is the caller's next step
 * (next-auth). In this order:
 *
 * 1. the policy, before any work: a refusal that is the same for every address;
 * 2. the per-address sign-up throttle (SIGNUP_MAX_PER_ADDRESS per window; lib/auth/throttle.ts);
 * 3. the password is hashed, whether or not the address is free;
 * 4. one transaction: the policy again, for good, under a lock when it depends on whether a team
 *    exists; the user (a taken address fails here, on the unique index, like a concurrent twin);
 *    the team; the audit record.
 *
 * Throws `FieldError` for a password the policy refuses or an address that cannot be used, and
 * `SafeError` for a refusal by policy or throttle, or an invitation that cannot be used.
 */
export async function signUp(input: SignUpInput, meta: { ip: string }): Promise<{ userId: string; teamId: string }> {
  const name = input.name.trim();
  const email = input.email.trim().toLowerCase();
  const password = newPasswordSchema.safeParse(input.password);
  if (!password.success) throw new FieldError("password", password.error.issues[0]?.message ?? "Choose another password.", "weak_password");

  const mode = signUpMode();
  if (!input.invite && dependsOnFirstTeam(mode)) {
    const decision = decideWithoutInvitation(mode, await oldestTeamId(), email);
    if (!decision.allowed) throw new SafeError(decision.message, decision.code);
  }

  const env = signUpEnv();
  const slot = await beginSignUp(email, meta.ip, { maxSignUpsPerAddress: env.SIGNUP_MAX_PER_ADDRESS, windowSeconds: env.AUTH_THROTTLE_WINDOW_SECONDS });
  if (!slot.allowed) throw new SafeError(`Too many sign-ups from your address. Try again in ${formatSeconds(slot.retryAfterSeconds)}.`, "throttled");

  const passwordHash = await hashPassword(input.password);
  try {
    return await prisma.$transaction(async (tx) => {
      let placement: Placement | null = null;
      if (!input.invite) {
        const decision = decideWithoutInvitation(mode, dependsOnFirstTeam(mode) ? await lockAndFindOldestTeam(tx) : null, email);
        if (!decision.allowed) throw new SafeError(decision.message, decision.code);
        placement = decision.placement;
      }
      const user = await tx.user.create({ data: { name, email, passwordHash } });
      let teamId: string;
      if (input.invite) teamId = (await redeemInvitation(tx, { token: input.invite, userId: user.id, email, ip: meta.ip })).teamId;
      else if (placement?.kind === "join-team") teamId = await joinAsMember(tx, placement.teamId, { id: user.id, email }, meta.ip);
      else teamId = (await ensureTeamFor(user, tx)).teamId;
      await audit(
        {
          action: "auth.sign_up",
          teamId,
          actorId: user.id,
          actorEmail: email,
          ip: meta.ip,
          metadata: { viaInvitation: Boolean(input.invite), placement: input.invite ? "invitation" : (placement?.kind ?? "own-team") },
        },
        tx,
      );
      return { userId: user.id, teamId };
    });
  } catch (error) {
    // The address has an account (or a concurrent sign-up took it a moment ago).
    if ((error as { code?: string }).code === "P2002") throw new FieldError("email", SIGN_UP_REFUSED_MESSAGE, "sign_up_refused");
    throw error;
  }
}

/** `domain:` mode: the new person joins the portal's team as a member. */
async function joinAsMember(tx: TransactionClient, teamId: string, user: { id: string; email: string }, ip: string): Promise<string> {
  await lockTeam(tx, teamId);
  await tx.membership.create({ data: { teamId, userId: user.id, role: "MEMBER" } });
  await audit(
    { action: "team.joined", teamId, actorId: user.id, actorEmail: user.email, target: `user:${user.id}`, ip, metadata: { role: "MEMBER", via: "email-domain" } },
    tx,
  );
  return teamId;
}
