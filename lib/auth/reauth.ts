import "server-only";
import { prisma } from "@/lib/db/prisma";
import { auditByActor } from "@/lib/audit/log";
import { FieldError, SafeError } from "@/lib/errors";
import { formatSeconds } from "@/lib/duration";
import { reauthEnv } from "@/lib/env";
import { verifyPassword } from "./password";
import { REAUTH_REQUIRED_MESSAGE } from "./reauth-shared";
import type { Actor } from "./session";
import { beginPasswordAttempt, passwordAttemptSucceeded } from "./throttle";
import { verifySignedInCode } from "./two-factor";

/**
 * Recent re-authentication: sensitive actions (saving, replacing or deleting credentials, role
 * changes, invitations as owner or admin, removing members, turning two-factor off, requiring it for
 * the team, exporting header values) need this session to have proved who is using it within
 * AUTH_REAUTH_WINDOW_SECONDS (10 minutes): by signing in, or by re-authenticating since (password;
 * a code for two-factor people). Recorded on the session row (`UserSession.reauthenticatedAt`), so
 * it is per browser, and checked inside each action (lib/actions/pipeline.ts, `recentAuth`) and
 * route, never by the page alone.
 */

/** Refused for want of a recent re-authentication: the form asks for it and retries. */
export class ReauthRequired extends SafeError {
  readonly reauthRequired = true;
  constructor() {
    super(REAUTH_REQUIRED_MESSAGE, "reauth_required");
    this.name = "ReauthRequired";
  }
}

export function isReauthRequired(error: unknown): error is ReauthRequired {
  return error instanceof ReauthRequired || (typeof error === "object" && error !== null && (error as { reauthRequired?: unknown }).reauthRequired === true);
}

export function reauthWindowSeconds(): number {
  return reauthEnv().AUTH_REAUTH_WINDOW_SECONDS;
}

export function isRecentlyAuthenticated(actor: Pick<Actor, "reauthenticatedAt">, now: number = Date.now()): boolean {
  return now - actor.reauthenticatedAt.getTime() <= reauthWindowSeconds() * 1000;
}

/** Throws ReauthRequired unless this session re-authenticated within the window. */
export function assertRecentlyAuthenticated(actor: Pick<Actor, "reauthenticatedAt">): void {
  if (!isRecentlyAuthenticated(actor)) throw new ReauthRequired();
}

/**
 * Re-authenticates this session: a two-factor person with a current code (their password alone would
 * be weaker than how they signed in), anyone else with their password. Throttled as sign-in guesses;
 * a wrong answer is a FieldError on its field. On success the session's `reauthenticatedAt` is now.
 */
export async function reauthenticate(actor: Actor, input: { password?: string; code?: string }, meta: { ip: string }): Promise<void> {
  if (actor.twoFactorEnabled) {
    try {
      await verifySignedInCode(actor, input.code ?? "", { ip: meta.ip, field: "code" });
    } catch (error) {
      await auditByActor(actor, { action: "auth.reauthentication_failed", ip: meta.ip, metadata: { with: "totp" } });
      throw error;
    }
  } else {
    const attempt = await beginPasswordAttempt(actor.email, meta.ip);
    if (!attempt.allowed) throw new FieldError("password", `Too many wrong passwords. Try again in ${formatSeconds(attempt.retryAfterSeconds)}.`, "throttled");
    const user = await prisma.user.findUniqueOrThrow({ where: { id: actor.userId }, select: { passwordHash: true } });
    if (!(await verifyPassword(user.passwordHash, input.password ?? ""))) {
      await auditByActor(actor, { action: "auth.reauthentication_failed", ip: meta.ip, metadata: { with: "password" } });
      throw new FieldError("password", "That is not your password.", "wrong_password");
    }
    await passwordAttemptSucceeded(attempt.attemptId);
  }
  await prisma.userSession.updateMany({ where: { id: actor.sessionId, userId: actor.userId, revokedAt: null }, data: { reauthenticatedAt: new Date() } });
  await auditByActor(actor, { action: "auth.reauthenticated", ip: meta.ip, metadata: { with: actor.twoFactorEnabled ? "totp" : "password" } });
}
