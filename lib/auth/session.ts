import "server-only";
import { cache } from "react";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { getToken } from "next-auth/jwt";
import { prisma } from "@/lib/db/prisma";
import { asDatabaseUnavailable } from "@/lib/db/outage";
import type { Role } from "@/lib/generated/prisma/client";
import { serverEnv } from "@/lib/env";
import { TWO_FACTOR_SETUP_PATH, mustEnrolTwoFactor, type Actor } from "@/lib/access/actor";
import { PERMISSIONS } from "@/lib/access/roles";
import { rememberCredentialReadWithSession } from "@/lib/ems-access/credential";
import { safeCallbackUrl } from "./callback-url";
import { decodeSessionToken } from "./session-token";
import { lastSeenWriteIntervalSeconds, sessionPolicy } from "./session-policy";

/** What a verified session cookie says: the user, their server-side session row and its version. */
export interface SessionClaims {
  uid: string;
  sid: string;
  sv: number;
}

/**
 * The claims of the JWT in the session cookie, verified; null when absent, forged or expired.
 * This is the only place a request's session cookie is decoded (proxy.ts only checks that one is
 * there), and getActor's per-request cache makes it once per request.
 */
async function readSessionClaims(): Promise<SessionClaims | null> {
  const cookieStore = await cookies();
  const secure = cookieStore.has("__Secure-next-auth.session-token") || cookieStore.has("__Secure-next-auth.session-token.0");
  // Cookies only: a JWT in an Authorization header is no session of ours.
  const req = { headers: {}, cookies: Object.fromEntries(cookieStore.getAll().map((c) => [c.name, c.value])) };
  // next-auth finds the cookie (chunks and all); the token is read with the key derived once (./session-token.ts).
  const token = await getToken({
    req: req as never,
    secret: serverEnv().NEXTAUTH_SECRET,
    secureCookie: secure,
    decode: async ({ token: jwe, secret }) => (jwe ? decodeSessionToken(jwe, String(secret)) : null),
  });
  if (!token || typeof token.sid !== "string" || typeof token.uid !== "string" || typeof token.sv !== "number") return null;
  return { uid: token.uid, sid: token.sid, sv: token.sv };
}

type ActorRow = Omit<Actor, "role" | "healthCounts"> & {
  role: string;
  healthErrors: number | null;
  healthWarnings: number | null;
  healthNotices: number | null;
  /** The person's credential row (encrypted), null columns when none: handed to lib/ems-access, never on the Actor. */
  credentialId: string | null;
  credentialBaseUrl: string | null;
  credentialKeyCiphertext: string | null;
  credentialSecretCiphertext: string | null;
  credentialFingerprint: string | null;
};

/** Who reviews plans (lib/access/roles.ts `approvePlans`): the navigation counts the plans waiting for them. */
const REVIEWER_ROLES: string[] = [...PERMISSIONS.approvePlans];

/**
 * The actor a session's claims stand for, checked against the database in ONE statement: the
 * session row must be open (not ended, used within the idle timeout, younger than the maximum
 * age: lib/auth/session-policy.ts) and belong to the claimed user, the user's session version must
 * match the cookie's, and the user must have a team. The same statement moves the session's
 * lastSeenAt forward when it is older than the write interval (at most five minutes; a
 * data-modifying WITH runs once, whatever the SELECT reads), so keeping "last seen" up to date
 * never costs a page view a round trip of its own. Times are UTC, as Prisma stores them.
 */
export async function actorForSession(claims: SessionClaims): Promise<Actor | null> {
  const { sid, uid, sv } = claims;
  const policy = sessionPolicy();
  const idle = policy.idleSeconds;
  const maxAge = policy.maxAgeSeconds;
  const writeEvery = lastSeenWriteIntervalSeconds(policy);
  const rows = await prisma.$queryRaw<ActorRow[]>`
    WITH "moment" AS (SELECT now() AT TIME ZONE 'UTC' AS t),
    "seen" AS (
      UPDATE "UserSession" AS s SET "lastSeenAt" = "moment".t
      FROM "User" AS u, "moment"
      WHERE s."id" = ${sid} AND s."userId" = ${uid} AND s."revokedAt" IS NULL
        AND s."lastSeenAt" > "moment".t - make_interval(secs => ${idle})
        AND s."createdAt" > "moment".t - make_interval(secs => ${maxAge})
        AND u."id" = s."userId" AND u."sessionVersion" = ${sv}
        AND s."lastSeenAt" < "moment".t - make_interval(secs => ${writeEvery})
      RETURNING s."id"
    )
    SELECT u."id" AS "userId", u."email", u."name", s."id" AS "sessionId",
           m."teamId", t."name" AS "teamName", m."role"::text AS "role",
           (tf."userId" IS NOT NULL) AS "twoFactorEnabled", t."requireTwoFactor" AS "teamRequiresTwoFactor",
           s."reauthenticatedAt", s."passwordVerifiedAt",
           hs."errors" AS "healthErrors", hs."warnings" AS "healthWarnings", hs."notices" AS "healthNotices",
           EXISTS (SELECT 1 FROM "ChangeTracker" AS ct WHERE ct."teamId" = m."teamId") AS "teamTracksHistory",
           (m."checklistDismissedAt" IS NOT NULL) AS "checklistDismissed",
           CASE WHEN m."role"::text = ANY(${REVIEWER_ROLES}) THEN
             (SELECT count(*)::int FROM "ChangePlan" AS p
               WHERE p."teamId" = m."teamId" AND p."status" = 'submitted' AND p."authorId" IS DISTINCT FROM u."id")
           ELSE 0 END AS "plansToReview",
           c."id" AS "credentialId", c."baseUrl" AS "credentialBaseUrl", c."keyCiphertext" AS "credentialKeyCiphertext",
           c."secretCiphertext" AS "credentialSecretCiphertext", c."fingerprint" AS "credentialFingerprint",
           (SELECT count(*)::int FROM "InboxItem" AS i
             WHERE i."userId" = u."id" AND i."teamId" = m."teamId" AND i."readAt" IS NULL) AS "inboxUnread"
    FROM "moment", "UserSession" AS s
    JOIN "User" AS u ON u."id" = s."userId"
    JOIN "Membership" AS m ON m."userId" = u."id"
    JOIN "Team" AS t ON t."id" = m."teamId"
    LEFT JOIN "TwoFactor" AS tf ON tf."userId" = u."id" AND tf."enabledAt" IS NOT NULL
    LEFT JOIN "ApiCredential" AS c ON c."userId" = u."id"
    LEFT JOIN "HealthSummary" AS hs ON hs."userId" = u."id" AND hs."teamId" = m."teamId" AND hs."fingerprint" = c."fingerprint"
    WHERE s."id" = ${sid} AND s."userId" = ${uid} AND s."revokedAt" IS NULL AND u."sessionVersion" = ${sv}
      AND s."lastSeenAt" > "moment".t - make_interval(secs => ${idle})
      AND s."createdAt" > "moment".t - make_interval(secs => ${maxAge})`;
  const row = rows[0];
  if (!row) return null;
  const {
    healthErrors,
    healthWarnings,
    healthNotices,
    credentialId,
    credentialBaseUrl,
    credentialKeyCiphertext,
    credentialSecretCiphertext,
    credentialFingerprint,
    ...fields
  } = row;
  const healthCounts = healthErrors === null ? null : { errors: healthErrors, warnings: healthWarnings ?? 0, notices: healthNotices ?? 0 };
  const actor: Actor = { ...fields, role: row.role as Role, healthCounts };
  // The credential came with the session (the join above): a listing view reads it from here
  // instead of asking the database again (lib/ems-access/credential.ts).
  rememberCredentialReadWithSession(
    actor,
    credentialId === null
      ? null
      : {
          id: credentialId,
          baseUrl: credentialBaseUrl!,
          keyCiphertext: credentialKeyCiphertext!,
          secretCiphertext: credentialSecretCiphertext!,
          fingerprint: credentialFingerprint!,
        },
  );
  return actor;
}

/**
 * The signed-in person for this request, checked against the database: the session row must be
 * open and the user's session version must match the cookie's. Cached per request. The session
 * check is the first query of nearly every page, action and route: when the database cannot be
 * reached it throws a DatabaseUnavailableError (lib/db/outage.ts), which forms show as a message,
 * routes answer 503 and app/error.tsx shows as the outage page.
 */
export const getActor = cache(async (): Promise<Actor | null> => {
  const claims = await readSessionClaims();
  if (!claims) return null;
  try {
    return await actorForSession(claims);
  } catch (error) {
    throw asDatabaseUnavailable(error) ?? error;
  }
});

/** The path the proxy saw, so a signed-out visitor comes back to it after signing in. */
async function currentPath(): Promise<string> {
  return safeCallbackUrl((await headers()).get("x-ems-path"));
}

/**
 * For pages and server actions: the actor, or a redirect to the sign-in page. A person whose team
 * requires two-factor and who has not enrolled is redirected to the enrolment page instead, from
 * every page and action except the few that enrol (`allowTwoFactorSetup`), so the requirement holds
 * on the server, not only in the browser.
 */
export async function requireActor(options: { allowTwoFactorSetup?: boolean } = {}): Promise<Actor> {
  const actor = await getActor();
  if (!actor) redirect(`/sign-in?callbackUrl=${encodeURIComponent(await currentPath())}`);
  if (!options.allowTwoFactorSetup && mustEnrolTwoFactor(actor)) redirect(TWO_FACTOR_SETUP_PATH);
  return actor;
}
