import "server-only";
import { cache } from "react";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { getToken } from "next-auth/jwt";
import { prisma } from "@/lib/db/prisma";
import type { Role } from "@/lib/generated/prisma/client";
import { serverEnv } from "@/lib/env";

export interface Actor {
  userId: string;
  email: string;
  name: string;
  sessionId: string;
  teamId: string;
  teamName: string;
  role: Role;
}

const LAST_SEEN_WRITE_INTERVAL_MS = 5 * 60 * 1000;

/** The JWT in the session cookie, verified; null when absent, forged or expired. */
async function readSessionToken() {
  const cookieStore = await cookies();
  const secure = cookieStore.has("__Secure-next-auth.session-token");
  const req = { headers: Object.fromEntries((await headers()).entries()), cookies: Object.fromEntries(cookieStore.getAll().map((c) => [c.name, c.value])) };
  return getToken({ req: req as never, secret: serverEnv().NEXTAUTH_SECRET, secureCookie: secure });
}

/**
 * The signed-in person for this request, checked against the database: the session row must be
 * open and the user's session version must match the cookie's. Cached per request.
 */
export const getActor = cache(async (): Promise<Actor | null> => {
  const token = await readSessionToken();
  if (!token?.sid || !token.uid || typeof token.sv !== "number") return null;
  const session = await prisma.userSession.findUnique({
    where: { id: token.sid },
    include: { user: { include: { membership: { include: { team: true } } } } },
  });
  if (!session || session.revokedAt || session.userId !== token.uid) return null;
  const { user } = session;
  if (user.sessionVersion !== token.sv || !user.membership) return null;
  if (Date.now() - session.lastSeenAt.getTime() > LAST_SEEN_WRITE_INTERVAL_MS) {
    await prisma.userSession.update({ where: { id: session.id }, data: { lastSeenAt: new Date() } });
  }
  return {
    userId: user.id,
    email: user.email,
    name: user.name,
    sessionId: session.id,
    teamId: user.membership.teamId,
    teamName: user.membership.team.name,
    role: user.membership.role,
  };
});

/** The path the proxy saw, so a signed-out visitor comes back to it after signing in. */
async function currentPath(): Promise<string> {
  const path = (await headers()).get("x-ems-path");
  return path && path.startsWith("/") && !path.startsWith("//") ? path : "/";
}

/** For pages and server actions: the actor, or a redirect to the sign-in page. */
export async function requireActor(): Promise<Actor> {
  const actor = await getActor();
  if (!actor) redirect(`/sign-in?callbackUrl=${encodeURIComponent(await currentPath())}`);
  return actor;
}

export function canManageTeam(actor: Pick<Actor, "role">): boolean {
  return actor.role === "OWNER" || actor.role === "ADMIN";
}
