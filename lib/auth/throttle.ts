import "server-only";
import { prisma } from "@/lib/db/prisma";
import { formatSeconds } from "@/lib/duration";

export interface ThrottleLimits {
  maxFailuresPerAccount: number;
  maxFailuresPerAddress: number;
  windowSeconds: number;
}

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Sign-in throttling kept in the database, so it holds across restarts and instances: after
 * `max` failures for one account, or from one address, inside the window, further attempts are
 * refused until the oldest of those failures leaves the window.
 */
export async function checkSignInThrottle(email: string, ip: string, limits: ThrottleLimits, now = new Date()): Promise<ThrottleVerdict> {
  const since = new Date(now.getTime() - limits.windowSeconds * 1000);
  const [byAccount, byAddress] = await Promise.all([
    recentFailures({ email }, since, limits.maxFailuresPerAccount),
    recentFailures({ ip }, since, limits.maxFailuresPerAddress),
  ]);
  const waits = [byAccount, byAddress]
    .filter((failures): failures is Date[] => failures !== null)
    .map((failures) => Math.ceil((failures[0].getTime() + limits.windowSeconds * 1000 - now.getTime()) / 1000));
  if (waits.length === 0) return { allowed: true };
  return { allowed: false, retryAfterSeconds: Math.max(1, ...waits) };
}

/**
 * The times of the failures that keep the limit reached, oldest first, or null when under the
 * limit. Only the newest `max` matter: the limit lifts when the oldest of them ages out.
 */
async function recentFailures(where: { email: string } | { ip: string }, since: Date, max: number): Promise<Date[] | null> {
  const rows = await prisma.loginAttempt.findMany({
    where: { ...where, success: false, createdAt: { gte: since } },
    orderBy: { createdAt: "desc" },
    take: max,
    select: { createdAt: true },
  });
  if (rows.length < max) return null;
  return rows.map((row) => row.createdAt).reverse();
}

export async function recordSignInAttempt(email: string, ip: string, success: boolean): Promise<void> {
  await prisma.loginAttempt.create({ data: { email, ip, success } });
}

/** Words for the sign-in form. */
export function throttleMessage(retryAfterSeconds: number): string {
  return `Too many failed sign-in attempts. Try again in ${formatSeconds(retryAfterSeconds)}.`;
}
