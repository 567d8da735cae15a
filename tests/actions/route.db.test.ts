// The route-handler pipeline (lib/actions/route.ts) on its own, with handlers written here, called
// as a crafted request would call an API route: with no cookie, a forged one, a stale session, a
// member held at two-factor enrolment, a bad query; and what each kind of failure answers and logs.
import { beforeEach, describe, expect, it, vi } from "vitest";
vi.mock("next/headers", () => import("./support/next-headers"));

import { notFound } from "next/navigation";
import { isHTTPAccessFallbackError } from "next/dist/client/components/http-access-fallback/http-access-fallback";
import { z } from "zod";
import { authedRoute, queryObject, type AuthedRouteContext } from "@/lib/actions/route";
import { jsonResponse } from "@/lib/actions/route-errors";
import { REAUTH_PASSWORD_MESSAGE, REAUTH_REQUIRED_MESSAGE } from "@/lib/access/reauth-shared";
import { prisma } from "@/lib/db/prisma";
import { CredentialsRejectedError, RateLimitedError } from "@/lib/ems/errors";
import { BadRequestError, GENERIC_ERROR_MESSAGE, SafeError, ForbiddenError, NotFoundError } from "@/lib/errors";
import { captureOutput } from "@/tests/ems/support/capture-logs";
import { withLogLevel } from "@/tests/ems/support/env";
import { addMember, createTeam } from "@/tests/teams/fixtures";
import { errorOf, routeRequest } from "./support/route-request";
import { signInAs, signedOut } from "./support/request";

const ELEVEN_MINUTES = 11 * 60 * 1000;
const REQUEST_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const ok = vi.fn(async () => jsonResponse({ ran: true }));
const open = authedRoute({ name: "test.open" }, ok);

/** Signs `who` in with a session that last proved itself `ageMs` ago, and its password `passwordAgeMs` ago. */
async function signedInSince(who: { userId: string }, ageMs: number, passwordAgeMs = ageMs): Promise<void> {
  const { sessionId } = await signInAs(who);
  const at = (age: number) => new Date(Date.now() - age);
  await prisma.userSession.update({ where: { id: sessionId }, data: { reauthenticatedAt: at(ageMs), passwordVerifiedAt: at(passwordAgeMs) } });
}

beforeEach(() => {
  signedOut({ path: "/api/test" });
  ok.mockClear();
});

describe("authedRoute: who gets through", () => {
  it("answers 401 JSON to a signed-out caller (never a redirect), names the request, and runs nothing", async () => {
    const response = await open(routeRequest("/api/test"));
    expect(response.status).toBe(401);
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("cache-control")).toContain("no-store");
    expect(response.headers.get("x-request-id")).toMatch(REQUEST_ID);
    expect(await errorOf(response)).toBe("Sign in first.");
    expect(ok).not.toHaveBeenCalled();
  });

  it("refuses a forged cookie like no cookie at all", async () => {
    signedOut({ headers: { cookie: "next-auth.session-token=not-a-jwt" } });
    expect((await open(routeRequest("/api/test"))).status).toBe(401);
    expect(ok).not.toHaveBeenCalled();
  });

  it("answers 403 to a member whose team requires two-factor and who has not enrolled, unless the route is enrolment's", async () => {
    const owner = await createTeam();
    await prisma.team.update({ where: { id: owner.teamId }, data: { requireTwoFactor: true } });
    const member = await addMember(owner, "MEMBER");
    await signInAs(member);
    const refused = await open(routeRequest("/api/test"));
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toBe("Your team requires two-factor sign-in: set it up first.");
    expect(ok).not.toHaveBeenCalled();

    const enrolment = authedRoute({ name: "test.enrolment", allowTwoFactorSetup: true }, ok);
    expect((await enrolment(routeRequest("/api/test"))).status).toBe(200);
  });

  it("hands the handler the actor of the session, the parsed query, the path's params, the client's address and the request id it answers with", async () => {
    const owner = await createTeam();
    await signInAs(owner);
    let seen: { query: unknown; context: AuthedRouteContext<{ id: string }> } | undefined;
    const query = queryObject({ n: z.coerce.number() });
    const route = authedRoute<{ id: string }, typeof query>({ name: "test.context", query }, async (query, context) => {
      seen = { query, context };
      return jsonResponse({});
    });
    const response = await route(routeRequest("/api/test/7?n=3&other=ignored"), { params: Promise.resolve({ id: "7" }) });
    expect(response.status).toBe(200);
    expect(seen!.query).toEqual({ n: 3 });
    expect(seen!.context.actor).toMatchObject({ userId: owner.userId, teamId: owner.teamId, role: "OWNER" });
    expect(seen!.context.params).toEqual({ id: "7" });
    expect(seen!.context.ip).toBe("203.0.113.7");
    expect(seen!.context.requestId).toBe(response.headers.get("x-request-id"));
    expect(seen!.context.request.url).toBe("http://localhost:3000/api/test/7?n=3&other=ignored");
    // Every request its own id.
    const first = seen!.context.requestId;
    expect((await route(routeRequest("/api/test/7?n=3"))).headers.get("x-request-id")).not.toBe(first);
  });
});

describe("authedRoute: recent re-authentication", () => {
  it("refuses a session that proved itself 11 minutes ago with 403 { error, reauthRequired } (what the export button reads), before the query is read", async () => {
    const owner = await createTeam();
    await signedInSince(owner, ELEVEN_MINUTES);
    const sensitive = authedRoute({ name: "test.sensitive", recentAuth: true, query: queryObject({ q: z.string({ error: "Say q." }) }) }, ok);
    const refused = await sensitive(routeRequest("/api/test"));
    expect(refused.status).toBe(403);
    expect(refused.headers.get("x-request-id")).toMatch(REQUEST_ID);
    expect(await refused.json()).toEqual({ error: REAUTH_REQUIRED_MESSAGE, reauthRequired: "any" });
    expect(ok).not.toHaveBeenCalled();

    await signedInSince(owner, 0);
    expect((await sensitive(routeRequest("/api/test?q=x"))).status).toBe(200);
  });

  it("asks for the password itself where the route says so: a recent code does not do", async () => {
    const owner = await createTeam();
    await signedInSince(owner, 0, ELEVEN_MINUTES);
    const passwordOnly = authedRoute({ name: "test.password", recentAuth: "password" }, ok);
    const refused = await passwordOnly(routeRequest("/api/test"));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: REAUTH_PASSWORD_MESSAGE, reauthRequired: "password" });
    expect((await open(routeRequest("/api/test"))).status).toBe(200);
  });

  it("asks only for the queries and params a function names sensitive", async () => {
    const owner = await createTeam();
    await signedInSince(owner, ELEVEN_MINUTES);
    const query = queryObject({ secrets: z.string().optional() });
    const route = authedRoute<{ resource: string }, typeof query>(
      { name: "test.some", query, recentAuth: (parsed, params) => params.resource === "groups" && parsed.secrets === "include" },
      ok,
    );
    const params = (resource: string) => ({ params: Promise.resolve({ resource }) });
    expect((await route(routeRequest("/api/test?secrets=include"), params("groups"))).status).toBe(403);
    expect((await route(routeRequest("/api/test"), params("groups"))).status).toBe(200);
    expect((await route(routeRequest("/api/test?secrets=include"), params("events"))).status).toBe(200);
  });
});

describe("authedRoute: the query", () => {
  it("answers 400 with the schema's own message, and a repeated parameter by name; the handler never runs", async () => {
    const owner = await createTeam();
    await signInAs(owner);
    const route = authedRoute(
      { name: "test.query", query: queryObject({ q: z.string({ error: "Say what to search for (?q=)." }).min(2, { error: "Two characters at least." }) }) },
      ok,
    );
    for (const [search, message] of [
      ["", "Say what to search for (?q=)."],
      ["?q=a", "Two characters at least."],
      ["?q=ab&q=cd", "?q= is given more than once."],
    ]) {
      const response = await route(routeRequest(`/api/test${search}`));
      expect(response.status, search).toBe(400);
      expect(response.headers.get("x-request-id")).toMatch(REQUEST_ID);
      expect(await errorOf(response)).toBe(message);
    }
    expect(ok).not.toHaveBeenCalled();
    // The real URLSearchParams: percent-encoding and "+" read as a browser wrote them.
    const echo = authedRoute({ name: "test.echo", query: queryObject({ q: z.string() }) }, async ({ q }) => jsonResponse({ q }));
    expect(await (await echo(routeRequest("/api/test?q=a%26b+c"))).json()).toEqual({ q: "a&b c" });
  });
});

describe("authedRoute: one mapping from errors to answers", () => {
  const throwing = (error: unknown) =>
    authedRoute({ name: "test.throws" }, async () => {
      throw error;
    });

  it.each([
    ["NotFoundError", new NotFoundError(), 404],
    ["ForbiddenError", new ForbiddenError("Only owners and admins can read the audit log."), 403],
    ["BadRequestError", new BadRequestError("Events cannot be sorted by “colour”."), 400],
    ["any other SafeError", new SafeError("A sync of this account is running right now.", "busy"), 409],
    ["rejected EMS credentials", new CredentialsRejectedError(), 403],
    ["the EMS's rate limit, with when to retry", new RateLimitedError(42), 429],
  ])("%s: its status and its own message", async (_what, error, status) => {
    const owner = await createTeam();
    await signInAs(owner);
    const response = await throwing(error)(routeRequest("/api/test"));
    expect(response.status).toBe(status);
    expect(response.headers.get("x-request-id")).toMatch(REQUEST_ID);
    expect(await errorOf(response)).toBe(error.message);
    expect(response.headers.get("retry-after")).toBe(error instanceof RateLimitedError ? "42" : null);
  });

  it("answers anything else 500 with a generic message and a reference, logged once under the request id", async () => {
    const owner = await createTeam();
    await signInAs(owner);
    const restoreLevel = withLogLevel("error");
    const { result, lines } = await captureOutput(() => throwing(new TypeError("connection to 10.0.0.5 refused for user app_rw"))(routeRequest("/api/test")));
    restoreLevel();
    const response = result!;
    const requestId = response.headers.get("x-request-id")!;
    expect(response.status).toBe(500);
    const body = await response.text();
    expect(JSON.parse(body)).toEqual({ error: `${GENERIC_ERROR_MESSAGE} (reference ${requestId.slice(0, 8)})` });
    expect(body).not.toContain("10.0.0.5");
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({
        level: "error",
        event: "route.failed",
        route: "test.throws",
        requestId,
        err: expect.objectContaining({ type: "TypeError", message: "connection to 10.0.0.5 refused for user app_rw" }),
      }),
    ]);
  });

  it("names the request on the handler's own answers too, even one whose headers cannot be changed", async () => {
    const owner = await createTeam();
    await signInAs(owner);
    const redirecting = authedRoute({ name: "test.redirect" }, async () => Response.redirect("http://localhost:3000/elsewhere", 303));
    const response = await redirecting(routeRequest("/api/test"));
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("http://localhost:3000/elsewhere");
    expect(response.headers.get("x-request-id")).toMatch(REQUEST_ID);
  });

  it("lets notFound() and redirect() through to Next, as the action pipeline does", async () => {
    const owner = await createTeam();
    await signInAs(owner);
    const missing = authedRoute({ name: "test.not-found" }, async () => notFound());
    const error = await missing(routeRequest("/api/test")).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(isHTTPAccessFallbackError(error)).toBe(true);
  });
});
