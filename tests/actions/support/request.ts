// The request a server action runs in, as `next/headers` would show it (the mock in
// ./next-headers.ts reads it through ./current-request.ts). Each test sets who is calling: signed out, or signed in with a real
// next-auth session cookie for a real session row, exactly what a crafted direct request carries.
import { encode } from "next-auth/jwt";
import { beforeEach } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { sessionPolicy } from "@/lib/auth/session-policy";
// Gives the process NEXTAUTH_SECRET and a key ring when the environment has none.
import "@/tests/teams/fixtures";
import { currentRequestHeaders, setCurrentRequestHeaders } from "./current-request";
import { revalidatePath } from "./next-cache";

/** next-auth's cookie name over plain HTTP (the `__Secure-` one is for HTTPS). */
export const SESSION_COOKIE = "next-auth.session-token";

/** What every test request carries besides the cookie: the proxy's path header and a client address. */
const BASE_HEADERS = {
  host: "localhost:3000",
  "x-forwarded-for": "203.0.113.7",
  "user-agent": "vitest (tests/actions)",
};

/** A new request: no cookie, the given path (the page the form was on) and any extra headers. */
export function signedOut(options: { path?: string; headers?: Record<string, string> } = {}): void {
  setCurrentRequestHeaders(new Headers({ ...BASE_HEADERS, "x-ems-path": options.path ?? "/", ...options.headers }));
}

/**
 * Before each test of the file: a new signed-out request on `path` (the page the form is on), and
 * no revalidation recorded yet (the file mocks `next/cache` with ./next-cache.ts).
 */
export function signedOutBeforeEach(path: string): void {
  beforeEach(() => {
    signedOut({ path });
    revalidatePath.mockClear();
  });
}

/**
 * Signs `userId` in as the sign-in flow does (lib/auth/sign-in.ts + the jwt callback in
 * lib/auth/options.ts): an open session row, and a JWT cookie naming it (uid, sid, sv).
 */
export async function signInAs(
  who: { userId: string } | { id: string },
  options: { path?: string; headers?: Record<string, string> } = {},
): Promise<{ sessionId: string; cookie: string }> {
  const userId = "userId" in who ? who.userId : who.id;
  const user = await prisma.user.findUniqueOrThrow({ where: { id: userId } });
  const session = await prisma.userSession.create({ data: { userId, ip: BASE_HEADERS["x-forwarded-for"], userAgent: BASE_HEADERS["user-agent"] } });
  const cookie = await encode({
    token: { sub: user.id, name: user.name, email: user.email, uid: user.id, sid: session.id, sv: user.sessionVersion },
    secret: process.env.NEXTAUTH_SECRET!,
    maxAge: sessionPolicy().maxAgeSeconds,
  });
  sendCookie(cookie, options);
  return { sessionId: session.id, cookie };
}

/** A request carrying a cookie made earlier (e.g. to show it stopped working). */
export function sendCookie(cookie: string, options: { path?: string; headers?: Record<string, string> } = {}): void {
  signedOut(options);
  currentRequestHeaders().set("cookie", `${SESSION_COOKIE}=${cookie}`);
}
