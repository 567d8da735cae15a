import "server-only";
import { z } from "zod";
import { prisma } from "@/lib/db/prisma";
import { audit } from "@/lib/audit/log";
import { SafeError } from "@/lib/errors";
import { dummyPasswordHash, verifyPassword, MAX_PASSWORD_LENGTH } from "./password";
import { beginPasswordAttempt, passwordAttemptSucceeded, throttleMessage } from "./throttle";
import { ensureTeamFor } from "./personal-team";

export const WRONG_CREDENTIALS_MESSAGE = "Wrong email or password.";

const signInInput = z.object({
  email: z.string().trim().toLowerCase().max(320),
  password: z.string().max(MAX_PASSWORD_LENGTH),
});

export interface SignedInUser {
  id: string;
  email: string;
  name: string;
  sessionId: string;
  sessionVersion: number;
}

/**
 * Checks an email and password and opens a server-side session row. Throttled (lib/auth/throttle.ts):
 * the attempt is counted as a failure before the password is checked, so concurrent attempts cannot
 * slip past the limit; a wrong password keeps it counted. Throws SafeError with the words the form
 * shows, the time to wait included; never says which part was wrong.
 */
export async function signInWithPassword(input: unknown, meta: { ip: string; userAgent: string | null }): Promise<SignedInUser> {
  const parsed = signInInput.safeParse(input);
  if (!parsed.success) throw new SafeError(WRONG_CREDENTIALS_MESSAGE, "wrong_credentials");
  const { email, password } = parsed.data;

  const attempt = await beginPasswordAttempt(email, meta.ip);
  if (!attempt.allowed) throw new SafeError(throttleMessage(attempt.retryAfterSeconds), "throttled");

  const user = await prisma.user.findUnique({ where: { email }, include: { membership: true } });
  const passwordMatches = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), password);
  if (!user || !passwordMatches) {
    await audit({ action: "auth.sign_in_failed", teamId: user?.membership?.teamId, actorId: user?.id, actorEmail: email, ip: meta.ip });
    throw new SafeError(WRONG_CREDENTIALS_MESSAGE, "wrong_credentials");
  }

  await passwordAttemptSucceeded(attempt.attemptId);
  const teamId = user.membership?.teamId ?? (await ensureTeamFor(user)).teamId;
  const session = await prisma.userSession.create({
    data: { userId: user.id, ip: meta.ip, userAgent: meta.userAgent?.slice(0, 300) },
  });
  await audit({ action: "auth.sign_in", teamId, actorId: user.id, actorEmail: user.email, ip: meta.ip });
  return { id: user.id, email: user.email, name: user.name, sessionId: session.id, sessionVersion: user.sessionVersion };
}
