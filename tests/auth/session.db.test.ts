// The session check every page and action runs (lib/auth/session.ts): one statement decides
// whether a cookie's claims still stand for a signed-in person with a team.
import type { PlanStatus } from "@/lib/generated/prisma/enums";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { actorForSession, getActor, requireActor } from "@/lib/auth/session";
import { isSessionOpen, sessionPolicy } from "@/lib/auth/session-policy";
import { prisma } from "@/lib/db/prisma";
import { listingMarks } from "@/lib/history/marks";
import { redirectOf } from "../actions/support/call";
import { installQueryCounter, type QueryCounter } from "../db/query-counter";
import { addMember, createTeam, createUser } from "../teams/fixtures";

// getActor reads the request's cookies through next/headers: here, a jar the tests fill; and
// requireActor the proxy's x-ems-path header, from a map (any string, as a test may need).
const jar = new Map<string, string>();
const requestHeaders = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({
    has: (name: string) => jar.has(name),
    getAll: () => [...jar].map(([name, value]) => ({ name, value })),
  }),
  headers: async () => ({ get: (name: string) => requestHeaders.get(name) ?? null }),
}));

let counter: QueryCounter;
beforeAll(async () => {
  counter = await installQueryCounter();
});
afterAll(async () => {
  await counter?.uninstall();
});

async function openSession(userId: string, lastSeenAt?: Date, createdAt?: Date) {
  const session = await prisma.userSession.create({ data: { userId, ...(lastSeenAt ? { lastSeenAt } : {}), ...(createdAt ? { createdAt } : {}) } });
  return { uid: userId, sid: session.id, sv: 0 };
}

const lastSeenOf = async (sid: string) => (await prisma.userSession.findUniqueOrThrow({ where: { id: sid } })).lastSeenAt;

describe("actorForSession", () => {
  it("builds the actor from session, user, membership and team in one statement", async () => {
    const owner = await createTeam("Session Team");
    const claims = await openSession(owner.userId);
    const { result, statements } = await counter.record(() => actorForSession(claims));
    // No health check yet: no counts for the navigation.
    expect(result).toEqual({
      ...owner,
      sessionId: claims.sid,
      teamName: "Session Team",
      role: "OWNER",
      reauthenticatedAt: expect.any(Date),
      passwordVerifiedAt: expect.any(Date),
      healthCounts: null,
      teamTracksHistory: false,
      checklistDismissed: false,
      plansToReview: 0,
      inboxUnread: 0,
    });
    expect(statements).toHaveLength(1);
  });

  it("counts, in the same statement, the person's own unread inbox items in their team (issue 37 §4)", async () => {
    const owner = await createTeam();
    const admin = await addMember(owner, "ADMIN");
    const item = (userId: string, teamId: string, readAt: Date | null, n: number) => ({
      userId,
      teamId,
      kind: "plan_approved",
      planTitle: "A plan",
      dedupeKey: `k${n}`,
      readAt,
    });
    const stranger = await createTeam();
    await prisma.inboxItem.createMany({
      data: [
        item(owner.userId, owner.teamId, null, 1),
        item(owner.userId, owner.teamId, null, 2),
        item(owner.userId, owner.teamId, new Date(), 3),
        // Someone else's, and one left from another team the person was in: not theirs here.
        item(admin.userId, owner.teamId, null, 4),
        item(owner.userId, stranger.teamId, null, 5),
      ],
    });
    const claims = await openSession(owner.userId);
    const { result, statements } = await counter.record(() => actorForSession(claims));
    expect(result?.inboxUnread).toBe(2);
    expect(statements).toHaveLength(1);
    expect((await actorForSession(await openSession(admin.userId)))?.inboxUnread).toBe(1);
  });

  it("counts, in the same statement, the plans an owner or admin may review: sent by someone else, not their own, none for a member", async () => {
    const owner = await createTeam();
    const admin = await addMember(owner, "ADMIN");
    const member = await addMember(owner, "MEMBER");
    const plan = (authorId: string, status: PlanStatus, teamId = owner.teamId) => ({ teamId, accountKey: "account", title: "A plan", status, authorId });
    const stranger = await createTeam();
    await prisma.changePlan.createMany({
      data: [
        plan(member.userId, "submitted"),
        plan(member.userId, "submitted"),
        plan(member.userId, "draft"),
        plan(admin.userId, "submitted"),
        plan(member.userId, "approved"),
        plan(stranger.userId, "submitted", stranger.teamId),
      ],
    });
    const countFor = async (userId: string) => {
      const claims = await openSession(userId);
      const { result, statements } = await counter.record(() => actorForSession(claims));
      expect(statements).toHaveLength(1);
      return result!.plansToReview;
    };
    expect(await countFor(owner.userId)).toBe(3);
    expect(await countFor(admin.userId)).toBe(2);
    expect(await countFor(member.userId)).toBe(0);
  });

  it("says in the same statement whether the team tracks change history, so a listing of a team that does not asks nothing more for its marks", async () => {
    const owner = await createTeam();
    const claims = await openSession(owner.userId);
    const untracked = (await actorForSession(claims))!;
    const { result: marks, statements } = await counter.record(() => listingMarks(untracked, "webhook-groups", [1, 2, 3]));
    expect(marks.size).toBe(0);
    expect(statements).toHaveLength(0);

    await prisma.changeTracker.create({ data: { teamId: owner.teamId, accountKey: `session-${owner.userId}`, accountLabel: "sandbox" } });
    const { result, statements: one } = await counter.record(() => actorForSession(claims));
    expect(result?.teamTracksHistory).toBe(true);
    expect(one).toHaveLength(1);
  });

  it("refuses a revoked session, another user's session, a stale session version and an unknown id", async () => {
    const owner = await createTeam();
    const other = await createTeam();
    const revoked = await openSession(owner.userId);
    await prisma.userSession.update({ where: { id: revoked.sid }, data: { revokedAt: new Date() } });
    expect(await actorForSession(revoked)).toBeNull();

    const open = await openSession(owner.userId);
    expect(await actorForSession({ ...open, uid: other.userId })).toBeNull();
    expect(await actorForSession({ ...open, sid: "no-such-session" })).toBeNull();

    await prisma.user.update({ where: { id: owner.userId }, data: { sessionVersion: { increment: 1 } } });
    expect(await actorForSession(open)).toBeNull();
    expect(await actorForSession({ ...open, sv: 1 })).not.toBeNull();
  });

  it("refuses a person without a team", async () => {
    const loner = await createUser("Loner");
    expect(await actorForSession(await openSession(loner.id))).toBeNull();
  });

  it("moves lastSeenAt forward when it is older than five minutes, in the same statement", async () => {
    const owner = await createTeam();
    const tenMinutesAgo = new Date(Date.now() - 10 * 60_000);
    const claims = await openSession(owner.userId, tenMinutesAgo);
    const { result, statements } = await counter.record(() => actorForSession(claims));
    expect(result?.userId).toBe(owner.userId);
    expect(statements).toHaveLength(1);
    expect((await lastSeenOf(claims.sid)).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it("leaves a recent lastSeenAt alone, and never touches a refused session", async () => {
    const owner = await createTeam();
    const twoMinutesAgo = new Date(Date.now() - 2 * 60_000);
    const recent = await openSession(owner.userId, twoMinutesAgo);
    await actorForSession(recent);
    expect((await lastSeenOf(recent.sid)).getTime()).toBe(twoMinutesAgo.getTime());

    const tenMinutesAgo = new Date(Date.now() - 10 * 60_000);
    const revoked = await openSession(owner.userId, tenMinutesAgo);
    await prisma.userSession.update({ where: { id: revoked.sid }, data: { revokedAt: new Date() } });
    await actorForSession(revoked);
    expect((await lastSeenOf(revoked.sid)).getTime()).toBe(tenMinutesAgo.getTime());

    const stale = await openSession(owner.userId, tenMinutesAgo);
    await actorForSession({ ...stale, sv: 7 });
    expect((await lastSeenOf(stale.sid)).getTime()).toBe(tenMinutesAgo.getTime());
  });
});

describe("actorForSession: idle timeout and maximum age (AUTH_SESSION_IDLE_SECONDS, AUTH_SESSION_MAX_AGE_SECONDS)", () => {
  const DAY = 24 * 3600 * 1000;
  const ago = (ms: number) => new Date(Date.now() - ms);

  it("refuses a session unused for the idle timeout (7 days by default), in the same one statement, and leaves its lastSeenAt alone", async () => {
    const owner = await createTeam();
    const idle = await openSession(owner.userId, ago(7 * DAY + 60_000), ago(8 * DAY));
    const { result, statements } = await counter.record(() => actorForSession(idle));
    expect(result).toBeNull();
    expect(statements).toHaveLength(1);
    expect((await lastSeenOf(idle.sid)).getTime()).toBeLessThan(Date.now() - 7 * DAY);
    // Used a minute within the timeout: still open, and the use moves lastSeenAt on.
    const recent = await openSession(owner.userId, ago(7 * DAY - 60_000), ago(8 * DAY));
    expect((await actorForSession(recent))?.userId).toBe(owner.userId);
    expect((await lastSeenOf(recent.sid)).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it("refuses a session past its maximum age (30 days by default) however recently it was used", async () => {
    const owner = await createTeam();
    expect(await actorForSession(await openSession(owner.userId, ago(60_000), ago(30 * DAY + 60_000)))).toBeNull();
    expect(await actorForSession(await openSession(owner.userId, ago(60_000), ago(30 * DAY - 60_000)))).not.toBeNull();
  });

  it("follows the configured timeout, and agrees with the rule of lib/auth/session-policy.ts on either side of it", async () => {
    const owner = await createTeam();
    process.env.AUTH_SESSION_IDLE_SECONDS = "900";
    try {
      const policy = sessionPolicy();
      expect(policy.idleSeconds).toBe(900);
      for (const idleFor of [14 * 60_000, 15 * 60_000 + 5_000, 16 * 60_000, 2 * 3600_000]) {
        const session = { createdAt: ago(3 * 3600_000), lastSeenAt: ago(idleFor), revokedAt: null };
        const claims = await openSession(owner.userId, session.lastSeenAt, session.createdAt);
        const open = (await actorForSession(claims)) !== null;
        expect(open, `idle for ${idleFor / 1000} s`).toBe(isSessionOpen(session, new Date(), policy));
        expect(open).toBe(idleFor < 15 * 60_000);
      }
    } finally {
      delete process.env.AUTH_SESSION_IDLE_SECONDS;
    }
  });
});

describe("getActor", () => {
  const sessionCookie = async (claims: { uid: string; sid: string; sv: number }, secret = process.env.NEXTAUTH_SECRET!) =>
    encode({ token: { ...claims, sub: claims.uid }, secret });

  it("decodes the session cookie and checks it against the database", async () => {
    const owner = await createTeam();
    const claims = await openSession(owner.userId);
    jar.clear();
    jar.set("next-auth.session-token", await sessionCookie(claims));
    const { result, statements } = await counter.record(() => getActor());
    expect(result?.userId).toBe(owner.userId);
    expect(statements).toHaveLength(1);
  });

  it("is null without a cookie, with a forged one, or with one signed by another secret", async () => {
    const owner = await createTeam();
    const claims = await openSession(owner.userId);
    jar.clear();
    expect(await getActor()).toBeNull();
    jar.set("next-auth.session-token", "not-a-jwt");
    const { result, statements } = await counter.record(() => getActor());
    expect(result).toBeNull();
    expect(statements).toHaveLength(0); // a cookie that does not decode never reaches the database
    jar.set("next-auth.session-token", await sessionCookie(claims, "another secret, at least thirty-two characters"));
    expect(await getActor()).toBeNull();
  });
});

describe("requireActor", () => {
  it("sends a signed-out visitor to sign in, with a return address that stays on the portal", async () => {
    jar.clear();
    for (const [path, expected] of [
      ["/events?page=2", "/events?page=2"],
      ["/\t/evil.example", "/"],
      ["//evil.example", "/"],
      ["/\\evil.example", "/"],
      ["/a\u0001b", "/a%01b"],
    ]) {
      requestHeaders.set("x-ems-path", path);
      expect(await redirectOf(requireActor()), JSON.stringify(path)).toBe(`/sign-in?callbackUrl=${encodeURIComponent(expected)}`);
    }
  });
});
