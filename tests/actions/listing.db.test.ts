// refreshListingAction (the refresh button), called as a crafted direct request would call it:
// signed out, with bad input, with a group id of another team's account, and as intended, against
// the sandbox EMS over real HTTP and a real database. It asks the API again with the caller's own
// credential only, and sends the caller back to the page it refreshed.
import { beforeEach, describe, expect, it, vi } from "vitest";
vi.mock("next/headers", () => import("./support/next-headers"));
vi.mock("next/cache", () => import("./support/next-cache"));

import { refreshListingAction } from "@/lib/actions/listing/refresh-listing";
import type { Actor } from "@/lib/access/actor";
import { saveCredential } from "@/lib/credentials/store";
import { hrefOf } from "@/lib/listing/href";
import { loadListing } from "@/lib/listing/load";
import { refreshShownRows } from "@/lib/listing/refresh";
import { parseListingSearchParams } from "@/lib/listing/search-params";
import { DEMO_CREDENTIALS, OTHER_CREDENTIALS } from "@/lib/sandbox/testing";
import { sandboxForFile } from "@/tests/ems/support/sandbox";
import { createTeam } from "@/tests/teams/fixtures";
import { call, expectSignInRedirect, redirectOf } from "./support/call";
import { signInAs, signedOut } from "./support/request";

const sandbox = sandboxForFile();
beforeEach(() => signedOut({ path: "/events" }));

/** API calls (not token requests) the sandbox has answered for an account so far. */
const apiCallsOf = async (key: string) => (await sandbox.admin.stats()).perAccount[key]?.apiRequests ?? 0;

async function connected(credentials: { consumerKey: string; consumerSecret: string }): Promise<Actor> {
  const owner = await createTeam();
  await saveCredential(owner, { baseUrl: sandbox.baseUrl, ...credentials });
  return owner;
}

describe("refreshListingAction", () => {
  it("sends a signed-out caller to sign-in, and asks the API nothing", async () => {
    const before = await apiCallsOf(DEMO_CREDENTIALS.consumerKey);
    await expectSignInRedirect(call(refreshListingAction, { resource: "events", search: "sort=-id" }), "/events");
    expect(await apiCallsOf(DEMO_CREDENTIALS.consumerKey)).toBe(before);
  });

  it("refuses input it cannot name a page by, field by field, before asking anything", async () => {
    const owner = await connected(DEMO_CREDENTIALS);
    await signInAs(owner, { path: "/events" });
    const before = await apiCallsOf(DEMO_CREDENTIALS.consumerKey);
    expect(await call(refreshListingAction, { resource: "contacts", search: "" })).toMatchObject({ status: "error", fieldErrors: { resource: expect.any(String) } });
    for (const groupId of ["abc", "0", "1e3", "9".repeat(16)]) {
      expect(await call(refreshListingAction, { resource: "webhook-groups", search: "", groupId }), groupId).toMatchObject({
        status: "error",
        fieldErrors: { groupId: expect.any(String) },
      });
    }
    expect(await call(refreshListingAction, { resource: "events", search: "x".repeat(8_001) })).toMatchObject({
      status: "error",
      fieldErrors: { search: expect.any(String) },
    });
    expect(await apiCallsOf(DEMO_CREDENTIALS.consumerKey)).toBe(before);
  });

  it("asks the API again for the listing on screen, past the shared answer, and goes back to it", async () => {
    const owner = await connected(DEMO_CREDENTIALS);
    const state = parseListingSearchParams("events", new URLSearchParams("sort=-id&per-page=50"));
    expect((await loadListing(owner, state)).kind).toBe("ok");
    const before = await apiCallsOf(DEMO_CREDENTIALS.consumerKey);
    // The shared answer serves a plain view of the same rows: no call.
    await loadListing(owner, state);
    expect(await apiCallsOf(DEMO_CREDENTIALS.consumerKey)).toBe(before);

    await signInAs(owner, { path: "/events" });
    expect(await redirectOf(call(refreshListingAction, { resource: "events", search: "sort=-id&per-page=50", groupId: "" }))).toBe(hrefOf(state));
    expect(await apiCallsOf(DEMO_CREDENTIALS.consumerKey)).toBe(before + 1);
  });

  it("refreshes a group's page with the caller's own credential: another team's account is never asked, even for its own group id", async () => {
    const owner = await connected(DEMO_CREDENTIALS);
    const stranger = await connected(OTHER_CREDENTIALS);
    const theirs = await loadListing(stranger, { ...parseListingSearchParams("webhook-groups", {}), fields: ["id", "name"] });
    if (theirs.kind !== "ok") throw new Error(`the sandbox listing failed: ${theirs.kind}`);
    const theirGroupId = Number(theirs.items[0]!.id);
    const otherBefore = await apiCallsOf(OTHER_CREDENTIALS.consumerKey);
    const ownBefore = await apiCallsOf(DEMO_CREDENTIALS.consumerKey);

    await signInAs(owner, { path: `/webhook-groups/${theirGroupId}` });
    expect(await redirectOf(call(refreshListingAction, { resource: "webhook-groups", search: "", groupId: String(theirGroupId) }))).toBe(
      `/webhook-groups/${theirGroupId}`,
    );
    expect(await apiCallsOf(OTHER_CREDENTIALS.consumerKey)).toBe(otherBefore);
    expect(await apiCallsOf(DEMO_CREDENTIALS.consumerKey)).toBe(ownBefore + 1);
  });

  it("without credentials, goes back to the page (which says to connect) and asks nothing", async () => {
    const owner = await createTeam();
    const before = (await sandbox.admin.stats()).apiRequests;
    await signInAs(owner, { path: "/events" });
    const state = parseListingSearchParams("events", new URLSearchParams("sort=-id"));
    expect(await redirectOf(call(refreshListingAction, { resource: "events", search: "sort=-id" }))).toBe(hrefOf(state));
    expect((await sandbox.admin.stats()).apiRequests).toBe(before);
  });
});

describe("refreshShownRows (the data function behind it)", () => {
  it("answers the canonical address of what it refreshed: the listing's options read by its own schema, or the group's page", async () => {
    const owner = await connected(DEMO_CREDENTIALS);
    const before = await apiCallsOf(DEMO_CREDENTIALS.consumerKey);
    // Options in any order, and one the schema drops, come back as the page's own address.
    const search = "per-page=50&sort=-id&colour=blue";
    expect(await refreshShownRows(owner, { resource: "events", search })).toBe(hrefOf(parseListingSearchParams("events", new URLSearchParams(search))));
    expect(await refreshShownRows(owner, { resource: "webhook-groups", search: "sort=-id", groupId: 3 })).toBe("/webhook-groups/3");
    // A group id means nothing to the events listing: its rows are refreshed.
    expect(await refreshShownRows(owner, { resource: "events", search: "", groupId: 3 })).toBe(hrefOf(parseListingSearchParams("events", new URLSearchParams(""))));
    expect(await apiCallsOf(DEMO_CREDENTIALS.consumerKey)).toBe(before + 3);
  });
});
