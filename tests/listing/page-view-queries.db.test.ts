// What one listing page view costs the database. The page's data path is: the session check
// (getActor → actorForSession, shared by the layout and the page through React's per-request
// cache) and the page's data function loadListingPage: resolveListing (saved views, with the
// credential load started beside it), then loadListing (the shared answer's lookup, sent beside the
// credential load, then the EMS call only when no answer of the last EMS_SHARED_ANSWER_SECONDS is
// stored) and the rows' change marks (none asked for a team that tracks no history). Budget: two statements — the
// session (which brings the credential's row with it: lib/ems-access/credential.ts), and the saved
// views, which bring the shared answer's lookup with them (lib/listing-page/resolve.ts). An
// answer that must be asked of the API adds its lease claim and its store (two more, around an API
// call that costs far more). A query added to this path fails here; the statements are in the message.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actorForSession, type SessionClaims } from "@/lib/auth/session";
import { deleteCredential, saveCredential } from "@/lib/credentials/store";
import { getEmsClientForActor } from "@/lib/ems-access/credential";
import { prisma } from "@/lib/db/prisma";
import { flushEmsState } from "@/lib/ems";
import { loadListingPage } from "@/lib/listing-page/page-data";
import { DEMO_CREDENTIALS, type StartedSandbox } from "@/lib/sandbox/testing";
import { startAllowedSandbox } from "@/tests/ems/support/sandbox";
import { createView, setDefaultView } from "@/lib/views/views";
import { installQueryCounter, type QueryCounter } from "../db/query-counter";
import { addMember, createTeam } from "../teams/fixtures";

const PAGE_VIEW_BUDGET = 2;

let sandbox: StartedSandbox;
let counter: QueryCounter;
beforeAll(async () => {
  sandbox = await startAllowedSandbox();
  counter = await installQueryCounter();
});
afterAll(async () => {
  await flushEmsState();
  await counter?.uninstall();
  await sandbox?.close();
});

/** A member with a session row, the sandbox's demo credentials and saved views of both scopes. */
async function signedInMember(): Promise<SessionClaims> {
  const owner = await createTeam();
  const member = await addMember(owner, "MEMBER");
  await saveCredential(member, { baseUrl: sandbox.baseUrl, consumerKey: DEMO_CREDENTIALS.consumerKey, consumerSecret: DEMO_CREDENTIALS.consumerSecret });
  await createView(owner, { page: "webhook-groups", name: "Team groups", query: "per-page=50", scope: "TEAM" });
  await createView(member, { page: "webhook-groups", name: "My groups", query: "sort=-id", scope: "PERSONAL" });
  const events = await createView(member, { page: "events", name: "Live", query: "per-page=10", scope: "PERSONAL" });
  await setDefaultView(member, "events", events.id);
  const session = await prisma.userSession.create({ data: { userId: member.userId } });
  return { uid: member.userId, sid: session.id, sv: 0 };
}

async function webhookGroupsPageView(claims: SessionClaims, searchParams: Record<string, string> = {}) {
  const actor = await actorForSession(claims);
  if (!actor) throw new Error("the session was refused");
  // What the page hands its components: resolved options now, rows (a promise of plain data) after.
  const resolved = await loadListingPage(actor, "webhook-groups", searchParams);
  const results = await resolved.results;
  const outcome = results.kind === "ok" ? results : results.failure;
  return { actor, resolved, outcome };
}

/**
 * The EMS client writes the rate-limit figures it saw at most once a second, from a timer, for all
 * page views together: background work, not this view's path (and only counted if the timer happens
 * to fire while recording).
 */
const isRateLimitWrite = (sql: string) =>
  (/"EmsTokenCache"/.test(sql) && /"rateLimitRemaining"/.test(sql) && /^\s*(INSERT|UPDATE)/i.test(sql)) ||
  // The credits spent per kind (lib/ems/budget.ts): the same once-a-second timer.
  /^\s*INSERT INTO "EmsBudgetUsage"/i.test(sql);

async function countPageView(claims: SessionClaims, searchParams: Record<string, string> = {}) {
  await flushEmsState();
  const { result, statements } = await counter.record(() => webhookGroupsPageView(claims, searchParams));
  const pagePath = statements.filter((sql) => !isRateLimitWrite(sql));
  return { ...result, pagePath, report: `${pagePath.length} statements:\n${pagePath.map((sql, i) => `${i + 1}. ${sql}`).join("\n")}` };
}

describe("one listing page view", () => {
  it(`costs at most ${PAGE_VIEW_BUDGET} database round trips: session (with the credential), saved views (with the shared answer)`, async () => {
    const claims = await signedInMember();
    // The first view of a process also reads the shared EMS token from the database (and may get
    // one): once per credential and process, not per view.
    expect((await webhookGroupsPageView(claims)).outcome.kind).toBe("ok");

    const callsBefore = (await sandbox.admin.stats()).apiRequests;
    const { outcome, resolved, pagePath, report } = await countPageView(claims);
    // The same view within the sharing window: the stored answer, no API call.
    expect((await sandbox.admin.stats()).apiRequests).toBe(callsBefore);
    expect(outcome.kind).toBe("ok");
    expect(outcome.kind === "ok" && outcome.items).toHaveLength(20);
    expect(resolved.views.map((v) => v.name).sort()).toEqual(["My groups", "Team groups"]);
    expect(pagePath.length, report).toBeLessThanOrEqual(PAGE_VIEW_BUDGET);
    // Which two: the session's and the saved views' (with the stored answer's lookup); the answer was shared.
    expect(
      pagePath.filter((sql) => /"UserSession"/.test(sql)),
      report,
    ).toHaveLength(1);
    expect(
      pagePath.filter((sql) => /"SavedView"/.test(sql)),
      report,
    ).toHaveLength(1);
    // The session statement brings the credential's row: no statement of its own (issue 38).
    expect(
      pagePath.filter((sql) => /"ApiCredential"/.test(sql) && !/"EmsSharedAnswer"|"UserSession"/.test(sql)),
      report,
    ).toHaveLength(0);
    expect(
      pagePath.filter((sql) => /"EmsSharedAnswer"/.test(sql) && /"SavedView"/.test(sql)),
      report,
    ).toHaveLength(1);
    expect(outcome.kind === "ok" && outcome.freshness.stale).toBe(false);
  });

  it("moves the session's lastSeenAt forward every five minutes without a round trip of its own", async () => {
    const claims = await signedInMember();
    await webhookGroupsPageView(claims);
    const tenMinutesAgo = new Date(Date.now() - 10 * 60_000);
    await prisma.userSession.update({ where: { id: claims.sid }, data: { lastSeenAt: tenMinutesAgo } });

    const { outcome, pagePath, report } = await countPageView(claims);
    expect(outcome.kind).toBe("ok");
    expect(pagePath.length, report).toBeLessThanOrEqual(PAGE_VIEW_BUDGET);
    const { lastSeenAt } = await prisma.userSession.findUniqueOrThrow({ where: { id: claims.sid } });
    expect(lastSeenAt.getTime()).toBeGreaterThan(tenMinutesAgo.getTime() + 5 * 60_000);
  });

  it("opening a saved view counts its use (for the tabs' “most used”) inside the saved-views statement: still two", async () => {
    const claims = await signedInMember();
    const view = await prisma.savedView.findFirstOrThrow({ where: { ownerId: claims.uid, name: "My groups" } });
    const searchParams = Object.fromEntries(new URLSearchParams(`${view.query}&view=${view.id}`));
    await webhookGroupsPageView(claims, searchParams);
    await prisma.savedViewUsage.deleteMany({ where: { userId: claims.uid } });

    const { outcome, resolved, pagePath, report } = await countPageView(claims, searchParams);
    expect(outcome.kind).toBe("ok");
    expect(resolved.activeView?.id).toBe(view.id);
    expect(pagePath.length, report).toBeLessThanOrEqual(PAGE_VIEW_BUDGET);
    expect(
      pagePath.filter((sql) => /"SavedView"/.test(sql)),
      report,
    ).toHaveLength(1);
    expect(await prisma.savedViewUsage.findMany({ where: { userId: claims.uid }, select: { viewId: true, useCount: true } })).toEqual([{ viewId: view.id, useCount: 1 }]);
  });

  it("without saved credentials: still the same two, and the page says so", async () => {
    const owner = await createTeam();
    const session = await prisma.userSession.create({ data: { userId: owner.userId } });
    const claims = { uid: owner.userId, sid: session.id, sv: 0 };
    const { outcome, pagePath, report } = await countPageView(claims);
    expect(outcome.kind).toBe("no-credentials");
    expect(pagePath.length, report).toBeLessThanOrEqual(PAGE_VIEW_BUDGET);
  });

  it("reads a credential saved or deleted during the request, not the row the session brought", async () => {
    const claims = await signedInMember();
    const actor = await actorForSession(claims);
    if (!actor) throw new Error("the session was refused");
    const before = await getEmsClientForActor(actor);
    await saveCredential(actor, { baseUrl: sandbox.baseUrl, consumerKey: DEMO_CREDENTIALS.consumerKey, consumerSecret: `${DEMO_CREDENTIALS.consumerSecret}-new` });
    const after = await getEmsClientForActor(actor);
    expect(after?.fingerprint).toBeDefined();
    expect(after?.fingerprint).not.toBe(before?.fingerprint);
    const { id } = await prisma.apiCredential.findUniqueOrThrow({ where: { userId: actor.userId } });
    const again = await actorForSession(claims);
    await deleteCredential(again!, { credentialId: id });
    expect(await getEmsClientForActor(again!)).toBeNull();
  });
});
