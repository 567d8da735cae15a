import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { prisma } from "@/lib/db/prisma";
import { isSafeError, GENERIC_ERROR_MESSAGE } from "@/lib/errors";
import { log } from "@/lib/log";
import { sameOriginPath } from "./callback-url";
import { clientIpFrom } from "./request-meta";
import { signInWithPassword } from "./sign-in";

export const SESSION_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;

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
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: "/sign-in", error: "/sign-in" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, req) {
        const header = headerReader(req?.headers as HeaderBag);
        try {
          const user = await signInWithPassword(credentials, { ip: clientIpFrom(header), userAgent: header("user-agent") ?? null });
          return { id: user.id, email: user.email, name: user.name, sid: user.sessionId, sv: user.sessionVersion };
        } catch (error) {
          // next-auth hands an thrown Error's message to the client as `error`: only our own words go there.
          if (isSafeError(error)) throw new Error(error.message);
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
