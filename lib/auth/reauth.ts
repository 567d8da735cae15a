import "server-only";
import { prisma } from "@/lib/db/prisma";
import { auditByActor } from "@/lib/audit/log";
import { FieldError } from "@/lib/errors";
import { formatSeconds } from "@/lib/duration";
import { verifyPassword } from "./password";
import { ReauthRequired } from "@/lib/access/recent-auth";
import type { Actor } from "@/lib/access/actor";
import { beginPasswordAttempt, passwordAttemptSucceeded } from "./throttle";
import { verifySignedInCode } from "./two-factor";

/** "Confirm it's you": how a session proves again who is using it (the rules are in ./recent-auth.ts). */

const NEW_FACTOR_MESSAGE = "Two-factor sign-in was set up since you last entered your password here: enter your password as well.";

/**
 * Re-authenticates this session.
 * - Anyone, with the password: `passwordVerifiedAt` (and for a person without two-factor also
 *   `reauthenticatedAt`) is now.
 * - A two-factor person, with a current code: `reauthenticatedAt` is now (their password alone would
 *   be weaker than how they signed in). With both password and code, both are now.
 * A code from a factor enabled after this session's last password proof is refused with
 * ReauthRequired("password"): the dialog then asks for the password too.
 * Throttled as sign-in guesses; a wrong answer is a FieldError on its field.
 */
export async function reauthenticate(actor: Actor, input: { password?: string; code?: string }, meta: { ip: string }): Promise<void> {
  const password = input.password ?? "";
  const withPassword = !actor.twoFactorEnabled || password !== "";
  if (withPassword) await verifyPasswordOf(actor, password, meta);
  let withCode = false;
  if (actor.twoFactorEnabled) {
    if (!withPassword) await refuseFactorNewerThanPassword(actor);
    try {
      await verifySignedInCode(actor, input.code ?? "", { ip: meta.ip, field: "code" });
    } catch (error) {
      await auditByActor(actor, { action: "auth.reauthentication_failed", ip: meta.ip, metadata: { with: "totp" } });
      throw error;
    }
    withCode = true;
  }
  const now = new Date();
  await prisma.userSession.updateMany({
    where: { id: actor.sessionId, userId: actor.userId, revokedAt: null },
    data: {
      ...(withPassword ? { passwordVerifiedAt: now } : {}),
      ...(withCode || !actor.twoFactorEnabled ? { reauthenticatedAt: now } : {}),
    },
  });
  const proof = withPassword && withCode ? "password+totp" : withCode ? "totp" : "password";
  await auditByActor(actor, { action: "auth.reauthenticated", ip: meta.ip, metadata: { with: proof } });
}

async function verifyPasswordOf(actor: Actor, password: string, meta: { ip: string }): Promise<void> {
  const attempt = await beginPasswordAttempt(actor.email, meta.ip);
  if (!attempt.allowed) throw new FieldError("password", `Too many wrong passwords. Try again in ${formatSeconds(attempt.retryAfterSeconds)}.`, "throttled");
  const user = await prisma.user.findUniqueOrThrow({ where: { id: actor.userId }, select: { passwordHash: true } });
  if (!(await verifyPassword(user.passwordHash, password))) {
    await auditByActor(actor, { action: "auth.reauthentication_failed", ip: meta.ip, metadata: { with: "password" } });
    throw new FieldError("password", "That is not your password.", "wrong_password");
  }
  await passwordAttemptSucceeded(attempt.attemptId);
}

/** A factor enabled after this session last proved its password vouches for nothing by itself. */
async function refuseFactorNewerThanPassword(actor: Actor): Promise<void> {
  const factor = await prisma.twoFactor.findUnique({ where: { userId: actor.userId }, select: { enabledAt: true } });
  if (factor?.enabledAt && factor.enabledAt > actor.passwordVerifiedAt) throw new ReauthRequired("password", NEW_FACTOR_MESSAGE);
}
