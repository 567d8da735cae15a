// The sessions page's actions (lib/actions/auth/end-session.ts, sign-out-other-sessions.ts), called
// as a crafted direct request would call them: nobody ends anyone else's session, and an ended
// session's cookie is refused at its next request.
import { beforeEach, describe, expect, it, vi } from "vitest";
vi.mock("next/headers", () => import("./support/next-headers"));
vi.mock("next/cache", () => import("./support/next-cache"));

import { prisma } from "@/lib/db/prisma";
import { endSessionAction } from "@/lib/actions/auth/end-session";
import { signOutOtherSessionsAction } from "@/lib/actions/auth/sign-out-other-sessions";
import { END_THIS_SESSION_MESSAGE, SESSION_ALREADY_ENDED_MESSAGE } from "@/lib/auth/sessions";
import { createTeam } from "@/tests/teams/fixtures";
import { call, expectSignInRedirect } from "./support/call";
import { sendCookie, signedOut, signInAs } from "./support/request";

const isOpen = async (sessionId: string) => (await prisma.userSession.findUniqueOrThrow({ where: { id: sessionId } })).revokedAt === null;

/** The cookie's next request: an action that needs a signed-in person. */
async function expectCookieRefused(cookie: string) {
  sendCookie(cookie, { path: "/account/sessions" });
  await expectSignInRedirect(call(signOutOtherSessionsAction), "/account/sessions");
}

describe("endSessionAction", () => {
  beforeEach(() => signedOut({ path: "/account/sessions" }));

  it("sends a signed-out caller to sign-in and ends nothing", async () => {
    const owner = await createTeam();
    const { sessionId } = await signInAs(owner);
    signedOut({ path: "/account/sessions" });
    await expectSignInRedirect(call(endSessionAction, { sessionId }), "/account/sessions");
    expect(await isOpen(sessionId)).toBe(true);
  });

  it("ends another session of the caller's; that browser's next request goes to sign-in, this one goes on", async () => {
    const owner = await createTeam();
    const laptop = await signInAs(owner);
    const phone = await signInAs(owner, { path: "/account/sessions" });
    expect(await call(endSessionAction, { sessionId: laptop.sessionId })).toEqual({
      status: "success",
      message: "Session ended. That browser is signed out at its next request.",
    });
    expect(await isOpen(laptop.sessionId)).toBe(false);
    expect(await isOpen(phone.sessionId)).toBe(true);
    expect(await prisma.auditLog.count({ where: { actorId: owner.userId, action: "auth.session_ended", target: laptop.sessionId } })).toBe(1);
    await expectCookieRefused(laptop.cookie);
    sendCookie(phone.cookie, { path: "/account/sessions" });
    expect((await call(signOutOtherSessionsAction)).status).toBe("success");
  });

  it("refuses a crafted id of another person's session, with the same answer as an ended one, and that session stays open", async () => {
    const owner = await createTeam();
    const victim = await createTeam();
    const theirs = await signInAs(victim);
    await signInAs(owner, { path: "/account/sessions" });
    const answer = await call(endSessionAction, { sessionId: theirs.sessionId });
    expect(answer).toEqual({ status: "error", message: SESSION_ALREADY_ENDED_MESSAGE });
    expect(await call(endSessionAction, { sessionId: "no-such-session" })).toEqual(answer);
    expect(await isOpen(theirs.sessionId)).toBe(true);
    expect(await prisma.auditLog.count({ where: { target: theirs.sessionId } })).toBe(0);
    // Their cookie still works.
    sendCookie(theirs.cookie, { path: "/account/sessions" });
    expect((await call(signOutOtherSessionsAction)).status).toBe("success");
  });

  it("refuses to end the session in use (that is signing out) and bad input", async () => {
    const owner = await createTeam();
    const here = await signInAs(owner, { path: "/account/sessions" });
    expect(await call(endSessionAction, { sessionId: here.sessionId })).toEqual({ status: "error", message: END_THIS_SESSION_MESSAGE });
    expect(await call(endSessionAction, {})).toEqual({ status: "error", fieldErrors: { sessionId: "Choose a session to end." } });
    expect(await isOpen(here.sessionId)).toBe(true);
  });
});

describe("signOutOtherSessionsAction", () => {
  it("ends every other session of the caller, keeps this one, and touches nobody else's (a crafted user id is ignored)", async () => {
    const owner = await createTeam();
    const other = await createTeam();
    const theirs = await signInAs(other);
    const first = await signInAs(owner);
    const second = await signInAs(owner);
    const here = await signInAs(owner, { path: "/account/sessions" });
    expect(await call(signOutOtherSessionsAction, { userId: other.userId })).toEqual({ status: "success", message: "Signed out of 2 other sessions." });
    expect(await isOpen(first.sessionId)).toBe(false);
    expect(await isOpen(second.sessionId)).toBe(false);
    expect(await isOpen(here.sessionId)).toBe(true);
    expect(await isOpen(theirs.sessionId)).toBe(true);
    expect(await prisma.auditLog.findFirst({ where: { actorId: owner.userId, action: "auth.other_sessions_ended" } })).toMatchObject({ metadata: { sessions: 2 } });
    await expectCookieRefused(first.cookie);
    await expectCookieRefused(second.cookie);
    sendCookie(here.cookie, { path: "/account/sessions" });
    expect(await call(signOutOtherSessionsAction)).toEqual({ status: "success", message: "No other session was open." });
  });
});
