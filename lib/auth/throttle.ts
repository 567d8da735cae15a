import "server-only";
import { randomUUID } from "node:crypto";
import { prisma, type TransactionClient } from "@/lib/db/prisma";
import { authEnv } from "@/lib/env";
import { formatSeconds } from "@/lib/duration";
import { UNKNOWN_ADDRESS, normalizeAddress } from "./request-meta";

/**
 * Throttles for guessing passwords and for signing up, kept in the database (AuthAttempt) so they
 * hold across restarts and instances.
 *
 * Password guesses (sign-in, and the current password of "change password"), per window:
 * - one account from one address: at most `maxFailuresPerAccount` wrong passwords, then that
 *   address is refused for that account until the oldest of them leaves the window (hard);
 * - one address, all accounts: at most `maxFailuresPerAddress`, then refused (hard);
 * - one account, all addresses: past `maxFailuresPerAccount`, each further guess waits a delay
 *   that doubles with every failure (1 s, 2 s, 4 s… up to `maxAccountDelaySeconds`) after the
 *   latest one; addresses the account signed in from in the last 30 days do not wait. So nobody
 *   elsewhere can stop the owner signing in from their own address, and a guesser spread over
 *   many addresses gets a handful of guesses per delay.
 * Sign-ups: at most `maxSignUpsPerAddress` per address per window (lib/auth/sign-up.ts).
 *
 * Counting and deciding is atomic: the attempt's keys (account and address) are locked with
 * transaction-scoped advisory locks, in one order, and the attempt is written, as a failure, in
 * the same transaction that counted the earlier ones, BEFORE the password is checked; a right
 * password then marks it a success. Concurrent attempts therefore see each other: of 40 at once
 * with a limit of 10, exactly 10 are checked. The locks are held for those few statements only,
 * never while a password is hashed.
 */

export interface ThrottleLimits {
  maxFailuresPerAccount: number;
  maxFailuresPerAddress: number;
  windowSeconds: number;
  maxAccountDelaySeconds: number;
}

export function throttleLimits(): ThrottleLimits {
  const env = authEnv();
  return {
    maxFailuresPerAccount: env.AUTH_MAX_FAILURES_PER_ACCOUNT,
    maxFailuresPerAddress: env.AUTH_MAX_FAILURES_PER_ADDRESS,
    windowSeconds: env.AUTH_THROTTLE_WINDOW_SECONDS,
    maxAccountDelaySeconds: env.AUTH_ACCOUNT_DELAY_MAX_SECONDS,
  };
}

export type ThrottleReason = "account-and-address" | "address" | "account-delay";

export interface Refusal {
  allowed: false;
  /** Whole seconds, at least 1: what the form tells the person. */
  retryAfterSeconds: number;
  reasons: ThrottleReason[];
}

export type ThrottleVerdict = { allowed: true; attemptId: string } | Refusal;

/** How long an address counts as the account owner's own after a sign-in from it. */
export const KNOWN_ADDRESS_DAYS = 30;

/**
 * The throttle's key for a client address: the address itself for IPv4, the /64 network for IPv6
 * (one subscriber's share; rotating within it would otherwise mint fresh keys for free).
 */
export function addressKey(ip: string): string {
  const address = normalizeAddress(ip);
  if (!address) return UNKNOWN_ADDRESS;
  if (!address.includes(":")) return address;
  // normalizeAddress gave the canonical form (lower case, no leading zeros, one "::" at most).
  const [head = "", tail] = address.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill("0"), ...tailGroups];
  return `${groups.slice(0, 4).join(":")}::/64`;
}

async function withKeysLocked<T>(keys: string[], work: (tx: TransactionClient) => Promise<T>): Promise<T> {
  return prisma.$transaction(
    async (tx) => {
      // One statement takes every lock, in the order of their numbers, so two attempts that share
      // keys never wait for each other crosswise. Released at commit.
      await tx.$executeRaw`
        SELECT pg_advisory_xact_lock(k)
        FROM (SELECT DISTINCT hashtextextended(key, 0) AS k FROM unnest(${keys}::text[]) AS key ORDER BY k) AS ordered`;
      return work(tx);
    },
    // Attempts on one busy key queue here for a few milliseconds each.
    { maxWait: 10_000, timeout: 10_000 },
  );
}

/** The database's clock, or the test's. AuthAttempt times are UTC, as Prisma writes them. */
const clock = (at: Date | undefined) => (at ? at.toISOString() : null);

interface PasswordFacts {
  /** Seconds until this account-and-address pair is under its limit again; null: it is. */
  pairRetryAfter: number | null;
  /** The same for the address, all accounts together. */
  addressRetryAfter: number | null;
  /** Wrong passwords for the account in the window, from every address. */
  accountFailures: number;
  /** Seconds since the newest of them. */
  sinceLatestAccountFailure: number | null;
  /** Where the account signed in from lately (its sessions' addresses). */
  sessionAddresses: string[] | null;
}

/**
 * Decides on one guess of `account`'s password from `ip`, and when it is allowed, records it as
 * a failure at once: call `passwordAttemptSucceeded(attemptId)` when the password was right.
 * `at` is for tests (the database's clock otherwise).
 */
export async function beginPasswordAttempt(account: string, ip: string, limits: ThrottleLimits = throttleLimits(), at?: Date): Promise<ThrottleVerdict> {
  return beginGuess("password", account, ip, limits, at);
}

/**
 * The same rule for a guess of a two-factor code (sign-in's second step, re-authentication,
 * turning two-factor off), counted apart from passwords (kind "two-factor"): someone who has the
 * password still gets only a handful of code guesses per window. `passwordAttemptSucceeded`
 * marks a right code too.
 */
export async function beginTwoFactorAttempt(account: string, ip: string, limits: ThrottleLimits = throttleLimits(), at?: Date): Promise<ThrottleVerdict> {
  return beginGuess("two-factor", account, ip, limits, at);
}

type GuessKind = "password" | "two-factor";

async function beginGuess(kind: GuessKind, account: string, ip: string, limits: ThrottleLimits, at?: Date): Promise<ThrottleVerdict> {
  const address = addressKey(ip);
  const window = limits.windowSeconds;
  return withKeysLocked([`${kind}:account:${account}`, `${kind}:address:${address}`], async (tx) => {
    const [facts] = await tx.$queryRaw<PasswordFacts[]>`
      WITH moment AS (SELECT COALESCE(${clock(at)}::timestamp, statement_timestamp() AT TIME ZONE 'UTC') AS t),
      recent AS (
        SELECT a."account", a."address", a."createdAt"
        FROM "AuthAttempt" AS a, moment
        WHERE a."kind" = ${kind} AND NOT a."success" AND a."createdAt" > moment.t - make_interval(secs => ${window})
          AND (a."account" = ${account} OR a."address" = ${address})
      )
      SELECT
        -- The limit lifts when the max-th newest failure leaves the window.
        (SELECT EXTRACT(EPOCH FROM r."createdAt" + make_interval(secs => ${window}) - moment.t)::float8 FROM recent AS r
          WHERE r."account" = ${account} AND r."address" = ${address}
          ORDER BY r."createdAt" DESC OFFSET ${limits.maxFailuresPerAccount - 1} LIMIT 1) AS "pairRetryAfter",
        (SELECT EXTRACT(EPOCH FROM r."createdAt" + make_interval(secs => ${window}) - moment.t)::float8 FROM recent AS r
          WHERE r."address" = ${address}
          ORDER BY r."createdAt" DESC OFFSET ${limits.maxFailuresPerAddress - 1} LIMIT 1) AS "addressRetryAfter",
        (SELECT count(*)::int FROM recent AS r WHERE r."account" = ${account}) AS "accountFailures",
        (SELECT EXTRACT(EPOCH FROM moment.t - max(r."createdAt"))::float8 FROM recent AS r WHERE r."account" = ${account}) AS "sinceLatestAccountFailure",
        (SELECT array_agg(DISTINCT s."ip") FROM "UserSession" AS s JOIN "User" AS u ON u."id" = s."userId"
          WHERE u."email" = ${account} AND s."ip" IS NOT NULL
            AND s."createdAt" > moment.t - make_interval(secs => ${KNOWN_ADDRESS_DAYS * 24 * 60 * 60})) AS "sessionAddresses"
      FROM moment`;
    const refusal = decidePasswordAttempt(facts!, address, limits);
    if (refusal) return refusal;
    const attemptId = randomUUID();
    await tx.$executeRaw`
      INSERT INTO "AuthAttempt" ("id", "kind", "account", "address", "success", "createdAt")
      VALUES (${attemptId}, ${kind}, ${account}, ${address}, false, COALESCE(${clock(at)}::timestamp, statement_timestamp() AT TIME ZONE 'UTC'))`;
    return { allowed: true, attemptId };
  });
}

/** The rule, on what the database said: null when the guess may go ahead. */
function decidePasswordAttempt(facts: PasswordFacts, address: string, limits: ThrottleLimits): Refusal | null {
  const waits: Array<{ reason: ThrottleReason; seconds: number }> = [];
  if (facts.pairRetryAfter !== null) waits.push({ reason: "account-and-address", seconds: facts.pairRetryAfter });
  if (facts.addressRetryAfter !== null) waits.push({ reason: "address", seconds: facts.addressRetryAfter });
  const ownAddress = address !== UNKNOWN_ADDRESS && (facts.sessionAddresses ?? []).some((ip) => addressKey(ip) === address);
  const excess = facts.accountFailures - limits.maxFailuresPerAccount;
  if (!ownAddress && excess >= 0 && facts.sinceLatestAccountFailure !== null) {
    const delay = Math.min(limits.maxAccountDelaySeconds, 2 ** excess);
    waits.push({ reason: "account-delay", seconds: delay - facts.sinceLatestAccountFailure });
  }
  const pending = waits.filter((wait) => wait.seconds > 0);
  if (pending.length === 0) return null;
  return {
    allowed: false,
    retryAfterSeconds: Math.max(1, Math.ceil(Math.max(...pending.map((wait) => wait.seconds)))),
    reasons: pending.map((wait) => wait.reason),
  };
}

/** The password of an attempt begun with `beginPasswordAttempt` was right: it no longer counts. */
export async function passwordAttemptSucceeded(attemptId: string): Promise<void> {
  await prisma.authAttempt.updateMany({ where: { id: attemptId }, data: { success: true } });
}

/**
 * Decides on one sign-up from `ip` and, when allowed, records it (sign-ups count whether or not an
 * account results: trying addresses that exist costs the same as creating accounts).
 */
export async function beginSignUp(account: string, ip: string, limits: { maxSignUpsPerAddress: number; windowSeconds: number }, at?: Date): Promise<ThrottleVerdict> {
  const address = addressKey(ip);
  const window = limits.windowSeconds;
  return withKeysLocked([`sign-up:address:${address}`], async (tx) => {
    const [facts] = await tx.$queryRaw<Array<{ retryAfter: number | null }>>`
      WITH moment AS (SELECT COALESCE(${clock(at)}::timestamp, statement_timestamp() AT TIME ZONE 'UTC') AS t)
      SELECT (
        SELECT EXTRACT(EPOCH FROM a."createdAt" + make_interval(secs => ${window}) - moment.t)::float8
        FROM "AuthAttempt" AS a
        WHERE a."kind" = 'sign-up' AND a."address" = ${address} AND a."createdAt" > moment.t - make_interval(secs => ${window})
        ORDER BY a."createdAt" DESC OFFSET ${limits.maxSignUpsPerAddress - 1} LIMIT 1
      ) AS "retryAfter"
      FROM moment`;
    const retryAfter = facts?.retryAfter ?? null;
    if (retryAfter !== null && retryAfter > 0) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfter)), reasons: ["address"] };
    const attemptId = randomUUID();
    await tx.$executeRaw`
      INSERT INTO "AuthAttempt" ("id", "kind", "account", "address", "success", "createdAt")
      VALUES (${attemptId}, 'sign-up', ${account}, ${address}, false, COALESCE(${clock(at)}::timestamp, statement_timestamp() AT TIME ZONE 'UTC'))`;
    return { allowed: true, attemptId };
  });
}

/** Words for the sign-in form. */
export function throttleMessage(retryAfterSeconds: number): string {
  return `Too many failed sign-in attempts. Try again in ${formatSeconds(retryAfterSeconds)}.`;
}
