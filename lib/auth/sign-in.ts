import "server-only";
import { z } from "zod";
import { prisma } from "@/lib/db/prisma";
import { audit } from "@/lib/audit/log";
import { SafeError } from "@/lib/errors";
import { metrics } from "@/lib/telemetry/metrics";
import { dummyPasswordHash, verifyPassword, MAX_PASSWORD_LENGTH } from "./password";
import { beginPasswordAttempt, passwordAttemptSucceeded, throttleMessage } from "./throttle";
import { ensureTeamFor } from "@/lib/teams/personal-team";
import { completeSignInChallenge, createSignInChallenge, hasTwoFactor } from "./two-factor";

export const WRONG_CREDENTIALS_MESSAGE = "Wrong email or password.";

const signInInput = z.object({
  email: z.string().trim().toLowerCase().max(320),
  password: z.string().max(MAX_PASSWORD_LENGTH),
});

/**
 * The password was right, and this person signs in with two factors: no session yet. The token of
 * the challenge the code must complete goes to the browser as an httpOnly cookie (lib/auth/options.ts),
 * never in an answer's body or URL.
 */
export class SecondFactorRequired extends Error {
  constructor(readonly challengeToken: string) {
    super("A two-factor code is required.");
    this.name = "SecondFactorRequired";
  }
}

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
  if (!attempt.allowed) {
    metrics().signInThrottled.inc();
    throw new SafeError(throttleMessage(attempt.retryAfterSeconds), "throttled");
  }

  const user = await prisma.user.findUnique({ where: { email }, include: { membership: true } });
  const passwordMatches = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), password);
  if (!user || !passwordMatches) {
    metrics().signInFailures.inc();
    await audit({ action: "auth.sign_in_failed", teamId: user?.membership?.teamId, actorId: user?.id, actorEmail: email, ip: meta.ip });
    throw new SafeError(WRONG_CREDENTIALS_MESSAGE, "wrong_credentials");
  }

  await passwordAttemptSucceeded(attempt.attemptId);
  // The password alone never opens a session for a two-factor person.
  if (await hasTwoFactor(user.id)) throw new SecondFactorRequired(await createSignInChallenge(user.id));
  const teamId = user.membership?.teamId ?? (await ensureTeamFor(user)).teamId;
  return openSession({ ...user, teamId }, meta);
}

/**
 * The second step of a two-factor sign-in: the challenge token (the browser's cookie) and a code or
 * recovery code (lib/auth/two-factor.ts checks both, throttled and single use); then the session.
 */
export async function signInWithSecondFactor(
  challengeToken: string | null | undefined,
  code: unknown,
  meta: { ip: string; userAgent: string | null },
): Promise<SignedInUser> {
  const typed = typeof code === "string" ? code.slice(0, 64) : "";
  const user = await completeSignInChallenge(challengeToken, typed, meta);
  const teamId = user.teamId ?? (await ensureTeamFor({ id: user.userId, name: user.name })).teamId;
  return openSession({ id: user.userId, email: user.email, name: user.name, sessionVersion: user.sessionVersion, teamId }, meta, { secondFactor: user.method });
}

/** A new server-side session row, re-authenticated and password-proven now (the sign-in is the proof), and its audit record. */
async function openSession(
  user: { id: string; email: string; name: string; sessionVersion: number; teamId: string },
  meta: { ip: string; userAgent: string | null },
  metadata?: { secondFactor: string },
): Promise<SignedInUser> {
  const session = await prisma.userSession.create({
    data: { userId: user.id, ip: meta.ip, userAgent: meta.userAgent?.slice(0, 300), reauthenticatedAt: new Date(), passwordVerifiedAt: new Date() },
  });
  await audit({ action: "auth.sign_in", teamId: user.teamId, actorId: user.id, actorEmail: user.email, ip: meta.ip, metadata });
  return { id: user.id, email: user.email, name: user.name, sessionId: session.id, sessionVersion: user.sessionVersion };
}
