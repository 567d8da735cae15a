/**
 * The person bench:pages signs in as: a user with a password, a team of their own, the sandbox's
 * demo credentials saved through the portal's own data function (encrypted, fingerprinted), and a
 * few saved views of both scopes, so the saved-views query returns rows as it does for real users.
 * Runs in the bench process against the bench's database, directly (not through the round-trip
 * relay), with the same secrets the portal gets; imports the app's modules only once they are set.
 */
import { randomUUID } from "node:crypto";
import { DEMO_CREDENTIALS } from "../lib/sandbox/demo-credentials";

export interface BenchUser {
  email: string;
  password: string;
  teamId: string;
}

/**
 * `credentials`: the sandbox account the user's credential reads (the demo account unless told).
 * `join`: a team to join with that role, instead of a team of their own (no saved views then).
 */
export async function seedBenchUser(
  sandboxBaseUrl: string,
  credentials: { consumerKey: string; consumerSecret: string } = DEMO_CREDENTIALS,
  join?: { teamId: string; role: "ADMIN" | "MEMBER" },
): Promise<BenchUser> {
  const { prisma } = await import("../lib/db/prisma");
  const { hashPassword } = await import("../lib/auth/password");
  const { saveCredential } = await import("../lib/credentials/store");
  const { createView } = await import("../lib/views/views");
  const id = randomUUID().slice(0, 8);
  const bench = { email: `bench-${id}@example.test`, password: `bench pages ${id} password`, name: `Bench ${id}` };
  try {
    const user = await prisma.user.create({ data: { email: bench.email, name: bench.name, passwordHash: await hashPassword(bench.password) } });
    // A regular user, past the first-run checklist (a new one pays one statement more per listing
    // view until they dismiss it: tests/onboarding counts that).
    const team = join
      ? await prisma.team.update({
          where: { id: join.teamId },
          data: { memberships: { create: { userId: user.id, role: join.role, checklistDismissedAt: new Date() } } },
        })
      : await prisma.team.create({
          data: { name: `${bench.name}'s team`, memberships: { create: { userId: user.id, role: "OWNER", checklistDismissedAt: new Date() } } },
        });
    const actor = {
      userId: user.id,
      email: user.email,
      name: user.name,
      sessionId: "bench-seed",
      teamId: team.id,
      teamName: team.name,
      role: join?.role ?? ("OWNER" as const),
      twoFactorEnabled: false,
      teamRequiresTwoFactor: false,
      reauthenticatedAt: new Date(),
      passwordVerifiedAt: new Date(),
    };
    await saveCredential(actor, { baseUrl: sandboxBaseUrl, consumerKey: credentials.consumerKey, consumerSecret: credentials.consumerSecret });
    if (!join) {
      await createView(actor, { page: "webhook-groups", name: "Team: 50 a page", query: "per-page=50", scope: "TEAM" });
      await createView(actor, { page: "webhook-groups", name: "Mine: 100 a page", query: "per-page=100", scope: "PERSONAL" });
      await createView(actor, { page: "events", name: "Team events", query: "per-page=50", scope: "TEAM" });
    }
    return { email: bench.email, password: bench.password, teamId: team.id };
  } finally {
    // The embedded database admits one connection at a time: the portal's comes next.
    await prisma.$disconnect();
  }
}

/** Signs in through next-auth's credentials endpoint, as the sign-in form does; returns the Cookie header. */
export async function signIn(baseUrl: string, user: BenchUser): Promise<string> {
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookieOf = (response: Response) => response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]);
  const response = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieOf(csrf).join("; ") },
    body: new URLSearchParams({ csrfToken, email: user.email, password: user.password, callbackUrl: `${baseUrl}/webhook-groups`, json: "true" }),
  });
  await response.arrayBuffer();
  const session = cookieOf(response).filter((cookie) => /^(__Secure-)?next-auth\.session-token(\.\d+)?=/.test(cookie));
  if (session.length === 0) throw new Error(`signing in as ${user.email} gave no session cookie (HTTP ${response.status}, location ${response.headers.get("location")})`);
  return session.join("; ");
}
