import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { prisma } from "@/lib/db/prisma";
import { asDatabaseUnavailable } from "@/lib/db/outage";
import { isSafeError, GENERIC_ERROR_MESSAGE } from "@/lib/errors";
import { log } from "@/lib/log";
import { authEnv } from "@/lib/env";
import { sameOriginPath } from "./callback-url";
import { clientIpFrom } from "./request-meta";
import { sessionPolicy } from "./session-policy";
import { cookies } from "next/headers";
import { TWO_FACTOR_REQUIRED } from "@/lib/access/reauth-shared";
import { SecondFactorRequired, signInWithPassword, signInWithSecondFactor } from "./sign-in";
import { CHALLENGE_TTL_SECONDS } from "./two-factor";

/**
 * The pending two-factor sign-in's token, between the password and the code (lib/auth/two-factor.ts):
 * httpOnly (no script reads it), SameSite=Lax, for the sign-in route only, five minutes. `__Host-`
 * and Secure over HTTPS, like next-auth's own cookies.
 */
export function challengeCookie(): { name: string; secure: boolean } {
  const secure = authEnv().NEXTAUTH_URL?.startsWith("https://") ?? false;
  return { name: secure ? "__Host-ems.two-factor" : "ems.two-factor", secure };
}

/** One cookie's value from a Cookie header (next-auth hands authorize the request's headers). */
function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

type HeaderBag = Headers | Record<string, string | string[] | undefined> | undefined;

function headerReader(bag: HeaderBag) {
  return (name: string): string | undefined => {
    if (!bag) return undefined;
    if (bag instanceof Headers) return bag.get(name) ?? undefined;
    const value = bag[name];
    return Array.isArray(value) ? value[0] : value;
  };
}

/**
 * next-auth with JWT sessions. The cookie carries only ids: the user, the server-side session row
 * (sid) and the user's session version (sv). lib/auth/session.ts checks both against the database
 * on every request, so signing out, "sign out everywhere" and password changes take effect at once.
 */
export const authOptions: NextAuthOptions = {
  session: {
    strategy: "jwt",
    // The cookie lives as long as a session may (AUTH_SESSION_MAX_AGE_SECONDS); the idle timeout
    // and ending a session are decided by the server on every request (lib/auth/session.ts).
    get maxAge() {
      return sessionPolicy().maxAgeSeconds;
    },
  },
  pages: { signIn: "/sign-in", error: "/sign-in" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
        code: { label: "Code", type: "text" },
      },
      // Two steps for a two-factor person: the password (answered with TWO_FACTOR_REQUIRED and the
      // challenge cookie, never a session), then the code alone, which completes the challenge the
      // cookie names. Everyone else: the password opens the session, as before.
      async authorize(credentials, req) {
        const header = headerReader(req?.headers as HeaderBag);
        const meta = { ip: clientIpFrom(header), userAgent: header("user-agent") ?? null };
        const challenge = challengeCookie();
        const codeStep = typeof credentials?.code === "string" && credentials.code !== "";
        try {
          const user = codeStep
            ? await signInWithSecondFactor(cookieValue(header("cookie"), challenge.name), credentials!.code, meta)
            : await signInWithPassword(credentials, meta);
          // The challenge is used up: the browser forgets it too.
          if (codeStep) (await cookies()).delete(challenge.name);
          return { id: user.id, email: user.email, name: user.name, sid: user.sessionId, sv: user.sessionVersion };
        } catch (error) {
          if (error instanceof SecondFactorRequired) {
            // Set on next-auth's own response (Next merges cookies set in a route handler).
            (await cookies()).set(challenge.name, error.challengeToken, {
              httpOnly: true,
              sameSite: "lax",
              secure: challenge.secure,
              path: "/",
              maxAge: CHALLENGE_TTL_SECONDS,
            });
            throw new Error(TWO_FACTOR_REQUIRED);
          }
          // next-auth hands an thrown Error's message to the client as `error`: only our own words go there.
          const safe = asDatabaseUnavailable(error) ?? error;
          if (isSafeError(safe)) throw new Error(safe.message);
          log.error({ event: "auth.sign_in_error", err: error }, "sign-in failed unexpectedly");
          throw new Error(GENERIC_ERROR_MESSAGE);
        }
      },
    }),
  ],
  callbacks: {
    // Where next-auth sends the browser after signing in or out: only a path on the portal (the
    // same parser as every other return address; next-auth's default accepts any value that
    // starts with "/", such as "/\t/evil.example").
    async redirect({ url, baseUrl }) {
      const path = sameOriginPath(url, baseUrl);
      return path ? `${new URL(baseUrl).origin}${path}` : baseUrl;
    },
    async jwt({ token, user }) {
      if (user) {
        const signedIn = user as typeof user & { sid: string; sv: number };
        token.uid = signedIn.id;
        token.sid = signedIn.sid;
        token.sv = signedIn.sv;
      }
      return token;
    },
    async session({ session, token }) {
      // Only what the browser may know; the session row id stays in the httpOnly cookie.
      if (session.user) session.user.email = token.email ?? session.user.email;
      return session;
    },
  },
  events: {
    async signOut({ token }) {
      const sid = typeof token?.sid === "string" ? token.sid : null;
      if (sid) await prisma.userSession.updateMany({ where: { id: sid, revokedAt: null }, data: { revokedAt: new Date() } });
    },
  },
};

declare module "next-auth/jwt" {
  interface JWT {
    uid?: string;
    sid?: string;
    sv?: number;
  }
}
