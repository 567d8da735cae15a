// The command palette's route handlers (app/api/palette/*), called as a crafted request would call
// them: signed out, with bad input, as a member of another team, and as intended, against the
// sandbox EMS and a real database. Each answers for the caller's own team and credential only.
import { beforeEach, describe, expect, it, vi } from "vitest";
vi.mock("next/headers", () => import("../actions/support/next-headers"));

import { GET as viewsGET } from "@/app/api/palette/views/route";
import { GET as searchGET } from "@/app/api/palette/search/route";
import { READ_CREDITS_PER_PERSON } from "@/lib/admission";
import { GET as actionsGET } from "@/app/api/palette/actions/route";
import type { Actor } from "@/lib/access/actor";
import { startTracking } from "@/lib/history/trackers";
import { SYNC_INTERVALS } from "@/lib/history/sync-intervals";
import { saveCredential } from "@/lib/credentials/store";
import { prisma } from "@/lib/db/prisma";
import { loadListing } from "@/lib/listing/load";
import { parseListingSearchParams } from "@/lib/listing/search-params";
import { DEMO_CREDENTIALS } from "@/lib/sandbox/testing";
import { OTHER_CREDENTIALS } from "@/lib/sandbox/demo-credentials";
import { createView, setViewFavourite } from "@/lib/views/views";
import { sandboxForFile } from "../ems/support/sandbox";
import { signInAs, signedOut } from "../actions/support/request";
import { addMember, createTeam } from "../teams/fixtures";

const sandbox = sandboxForFile();
beforeEach(() => signedOut({ path: "/api/palette" }));

const listViews = () => viewsGET(new Request("http://localhost:3000/api/palette/views"));
const searchRaw = (query: string) => searchGET(new Request(`http://localhost:3000/api/palette/search${query ? `?${query}` : ""}`));
const search = (q?: string) => searchRaw(q === undefined ? "" : `q=${encodeURIComponent(q)}`);
const errorOf = async (response: Response) => ((await response.json()) as { error: string }).error;

describe("GET /api/palette/views", () => {
  it("answers 401 to a signed-out caller", async () => {
    const response = await listViews();
    expect(response.status).toBe(401);
    expect(response.headers.get("cache-control")).toContain("no-store");
  });

  it("lists the caller's own views and the team's, never a teammate's personal view or another team's", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const outsider = await createTeam();
    const team = await createView(owner, { page: "webhook-groups", name: "Team groups", query: "sort=-id", scope: "TEAM" });
    await createView(owner, { page: "events", name: "Owner's own", query: "per-page=50", scope: "PERSONAL" });
    const mine = await createView(member, { page: "events", name: "Mine", query: "per-page=50", scope: "PERSONAL" });
    await createView(outsider, { page: "events", name: "Elsewhere", query: "per-page=50", scope: "TEAM" });

    await signInAs(member);
    const response = await listViews();
    expect(response.status).toBe(200);
    const { views } = (await response.json()) as { views: { id: string; name: string; href: string; scope: string; page: string }[] };
    expect(views.map((view) => view.name).sort()).toEqual(["Mine", "Team groups"]);
    expect(views.find((view) => view.id === team.id)).toEqual({
      id: team.id,
      name: "Team groups",
      page: "webhook-groups",
      scope: "TEAM",
      isFavourite: false,
      href: `/webhook-groups?sort=-id&view=${team.id}`,
    });
    expect(views.find((view) => view.id === mine.id)?.href).toBe(`/events?per-page=50&view=${mine.id}`);
  });

  it("lists the caller's favourites first, then their personal views, then the team's, as the tabs do", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    await createView(owner, { page: "events", name: "A team view", query: "per-page=50", scope: "TEAM" });
    const liked = await createView(owner, { page: "events", name: "Z team view", query: "per-page=50", scope: "TEAM" });
    await createView(member, { page: "events", name: "M personal", query: "per-page=50", scope: "PERSONAL" });
    await setViewFavourite(member, liked.id, true);

    await signInAs(member);
    const { views } = (await (await listViews()).json()) as { views: { name: string; isFavourite: boolean }[] };
    expect(views.map((view) => [view.name, view.isFavourite])).toEqual([
      ["Z team view", true],
      ["M personal", false],
      ["A team view", false],
    ]);
  });
});

describe("GET /api/palette/search", () => {
  it("answers 401 to a signed-out caller, before looking at the query", async () => {
    const response = await search("hooks");
    expect(response.status).toBe(401);
  });

  it("answers 400 with the reason for a missing, too short, too long or unsearchable q, before asking the EMS", async () => {
    const owner = await createTeam();
    await signInAs(owner);
    for (const [q, message] of [
      [undefined, "Say what to search for (?q=)."],
      [" a ", "Type at least 2 characters."],
      ["x".repeat(201), "A search has at most 200 characters."],
      ["https://a.example/?x=1&y=2", "The EMS API cannot search for “&”: search for the part before or after it."],
      // A control character arrives as a space (lib/page-search-params.ts): "ab cd" is searched.
    ] as const) {
      const response = await search(q);
      expect(response.status, String(q)).toBe(400);
      expect(await errorOf(response)).toEqual(message);
    }
    const twice = await searchRaw("q=ab&q=cd");
    expect(twice.status).toBe(400);
  });

  it("answers 409 with what to do when the caller has no credentials, whatever a teammate has", async () => {
    const owner = await createTeam();
    await saveCredential(owner, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    const member = await addMember(owner, "MEMBER");
    await signInAs(member);
    const response = await search("hooks");
    expect(response.status).toBe(409);
    expect(await errorOf(response)).toBe("Connect an EMS account in Settings to search webhooks and events.");
  });

  it("finds the caller's webhooks by their whole URL, their host and their name, and events by name and id, with nothing secret in the answer", async () => {
    const owner = await createTeam();
    await saveCredential(owner, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    const hooks = await all(owner, "webhooks", ["id", "name", "url"]);
    const events = await all(owner, "events", ["id", "name"]);
    const hook = hooks.find((item) => !String(item.url).includes("&") && String(item.name).length > 3)!;
    const url = String(hook.url);
    await signInAs(owner);

    const byUrl = await found(url);
    expect(byUrl.webhooks.map((item) => item.id)).toContain(Number(hook.id));
    expect(byUrl.webhookTotal).toBe(
      hooks.filter((item) => String(item.url).toLowerCase().includes(url.toLowerCase()) || String(item.name).toLowerCase().includes(url.toLowerCase())).length,
    );
    expect(byUrl.webhooks.find((item) => item.id === Number(hook.id))).toEqual({
      id: Number(hook.id),
      name: hook.name,
      url,
      host: new URL(url).host,
      enabled: expect.any(Boolean),
    });

    const host = new URL(url).host;
    const byHost = await found(host);
    expect(byHost.webhookTotal).toBe(
      hooks.filter((item) => String(item.url).toLowerCase().includes(host.toLowerCase()) || String(item.name).toLowerCase().includes(host.toLowerCase())).length,
    );
    expect(byHost.webhooks.length).toBe(Math.min(8, byHost.webhookTotal));
    for (const item of byHost.webhooks) expect(`${item.name} ${item.url}`.toLowerCase()).toContain(host.toLowerCase());

    const event = events.find((item) => String(item.name).length > 5)!;
    const part = String(event.name).slice(1, 6).trim();
    const byName = await found(part);
    expect(byName.eventTotal).toBe(events.filter((item) => String(item.name).toLowerCase().includes(part.toLowerCase())).length);
    for (const item of byName.events) expect(item.name.toLowerCase()).toContain(part.toLowerCase());

    const byId = await found(String(event.id));
    expect(byId.events.map((item) => item.id)).toContain(Number(event.id));

    const response = await search(url);
    const text = await response.text();
    expect(text).not.toContain(DEMO_CREDENTIALS.consumerSecret);
    expect(text).not.toContain(DEMO_CREDENTIALS.consumerKey);
    expect(text).not.toContain("headers");

    expect(await found("no webhook is called this")).toEqual({ webhooks: [], webhookTotal: 0, events: [], eventTotal: 0 });
  });

  it("never answers another team's records: a team on the other account does not find the demo account's webhook by its URL", async () => {
    const demoTeam = await createTeam();
    await saveCredential(demoTeam, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    const otherTeam = await createTeam();
    await saveCredential(otherTeam, { baseUrl: sandbox.baseUrl, ...OTHER_CREDENTIALS });
    const demoHooks = await all(demoTeam, "webhooks", ["id", "name", "url"]);
    const otherHooks = await all(otherTeam, "webhooks", ["id", "name", "url"]);
    const otherUrls = new Set(otherHooks.map((item) => String(item.url)));
    const hook = demoHooks.find((item) => !String(item.url).includes("&") && !otherUrls.has(String(item.url)))!;

    // The demo team searches first, so a shared answer would be there to leak.
    await signInAs(demoTeam);
    expect((await found(String(hook.url))).webhooks.map((item) => item.id)).toContain(Number(hook.id));
    await signInAs(otherTeam);
    const theirs = await found(String(hook.url));
    const otherIds = new Set(otherHooks.map((item) => Number(item.id)));
    for (const item of theirs.webhooks) expect(otherIds.has(item.id)).toBe(true);
    expect(theirs.webhooks.map((item) => item.url)).not.toContain(String(hook.url));
  });

  it("answers 403 to a search another site sent (a crafted link), before spending a credit; the same search from the portal is served", async () => {
    const owner = await createTeam();
    await saveCredential(owner, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    await signInAs(owner);
    const before = (await sandbox.admin.stats()).apiRequests;
    const search = (site: string) => searchGET(new Request("http://localhost:3000/api/palette/search?q=hooks", { headers: { "sec-fetch-site": site } }));
    const crafted = await search("cross-site");
    expect(crafted.status).toBe(403);
    expect(await errorOf(crafted)).toMatch(/from the portal itself/);
    expect((await sandbox.admin.stats()).apiRequests).toBe(before);
    expect((await search("same-origin")).status).toBe(200);
    expect((await sandbox.admin.stats()).apiRequests).toBeGreaterThan(before);
  });

  it("answers 429 with Retry-After once a person's searches have spent their allowance, before asking the EMS", async () => {
    const owner = await createTeam();
    await saveCredential(owner, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    await signInAs(owner);
    for (let n = 0; n < READ_CREDITS_PER_PERSON / 20; n++) expect((await searchRaw(`q=burst${n}`)).status).toBe(200);
    const before = (await sandbox.admin.stats()).apiRequests;
    const refused = await searchRaw("q=one-more");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await errorOf(refused)).toMatch(/try again in \d+ s/);
    expect((await sandbox.admin.stats()).apiRequests).toBe(before);
  });

  it("answers 403 with the EMS's reason when the caller's credentials are rejected", async () => {
    const owner = await createTeam();
    await saveCredential(owner, { baseUrl: sandbox.baseUrl, consumerKey: DEMO_CREDENTIALS.consumerKey, consumerSecret: "not the secret" });
    await signInAs(owner);
    const response = await search("hooks");
    expect(response.status).toBe(403);
    expect(await errorOf(response)).toMatch(/\S/);
    expect(await prisma.apiCredential.count({ where: { userId: owner.userId } })).toBe(1);
  });
});

describe("GET /api/palette/actions", () => {
  it("answers 401 signed out; offers the team's active tracker's sync to an owner, nothing to a member", async () => {
    expect((await actionsGET(new Request("http://localhost:3000/api/palette/actions"))).status).toBe(401);
    const owner = await createTeam();
    await saveCredential(owner, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    const member = await addMember(owner, "MEMBER");
    const outsider = await createTeam();
    await saveCredential(outsider, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    const tracker = await startTracking(owner, { intervalMinutes: SYNC_INTERVALS[0] });
    await startTracking(outsider, { intervalMinutes: SYNC_INTERVALS[0] });

    const targets = async () =>
      ((await (await actionsGET(new Request("http://localhost:3000/api/palette/actions"))).json()) as { syncTargets: { trackerId: string }[] }).syncTargets;
    await signInAs(owner);
    expect((await targets()).map((target) => target.trackerId)).toEqual([tracker.id]);
    await signInAs(member);
    expect(await targets()).toEqual([]);
  });
});

type Found = {
  webhooks: { id: number; name: string; url: string; host: string; enabled: boolean }[];
  webhookTotal: number;
  events: { id: number; name: string }[];
  eventTotal: number;
};

async function found(q: string): Promise<Found> {
  const response = await search(q);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Found;
}

/** Every record of the caller's account, straight through the listing loader, as a second opinion. */
async function all(actor: Actor, resource: "webhooks" | "events", fields: string[]): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for (let page = 1; ; page++) {
    const outcome = await loadListing(actor, { ...parseListingSearchParams(resource, {}), fields, perPage: 200, page });
    if (outcome.kind !== "ok") throw new Error(`the sandbox listing failed: ${outcome.kind}`);
    items.push(...outcome.items);
    if (page >= outcome.meta.pageCount) return items;
  }
}
