// The command palette's route handlers (app/api/palette/*), called as a crafted request would call
// them: signed out, with bad input, as a member of another team, and as intended, against the
// sandbox EMS and a real database. Each answers for the caller's own team and credential only.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
vi.mock("next/headers", () => import("../actions/support/next-headers"));

import { GET as viewsGET } from "@/app/api/palette/views/route";
import { GET as groupsGET } from "@/app/api/palette/webhook-groups/route";
import { saveCredential } from "@/lib/credentials/store";
import { prisma } from "@/lib/db/prisma";
import { flushEmsState } from "@/lib/ems";
import { loadListing } from "@/lib/listing/load";
import { parseListingSearchParams } from "@/lib/listing/search-params";
import { DEMO_CREDENTIALS, type StartedSandbox } from "@/lib/sandbox/testing";
import { createView, setViewFavourite } from "@/lib/views/views";
import { startAllowedSandbox } from "../ems/support/sandbox";
import { signInAs, signedOut } from "../actions/support/request";
import { addMember, createTeam } from "../teams/fixtures";

let sandbox: StartedSandbox;
beforeAll(async () => {
  sandbox = await startAllowedSandbox();
});
afterAll(async () => {
  await flushEmsState();
  await sandbox?.close();
});
beforeEach(() => signedOut({ path: "/api/palette" }));

const listViews = () => viewsGET(new Request("http://localhost:3000/api/palette/views"));
const search = (q?: string) => groupsGET(new Request(`http://localhost:3000/api/palette/webhook-groups${q === undefined ? "" : `?q=${encodeURIComponent(q)}`}`));
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

describe("GET /api/palette/webhook-groups", () => {
  it("answers 401 to a signed-out caller, before looking at the query", async () => {
    const response = await search();
    expect(response.status).toBe(401);
  });

  it("answers 400 with the reason for a missing, too short, too long or unsearchable q", async () => {
    const owner = await createTeam();
    await signInAs(owner);
    for (const [q, message] of [
      [undefined, "Say what to search for (?q=)."],
      [" a ", "Type at least 2 characters of a name."],
      ["x".repeat(101), "A name to search for has at most 100 characters."],
      ["a&b", expect.stringContaining("“&”")],
    ] as const) {
      const response = await search(q);
      expect(response.status, String(q)).toBe(400);
      expect(await errorOf(response)).toEqual(message);
    }
  });

  it("answers 409 with what to do when the caller has no credentials, whatever a teammate has", async () => {
    const owner = await createTeam();
    await saveCredential(owner, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    const member = await addMember(owner, "MEMBER");
    await signInAs(member);
    const response = await search("group");
    expect(response.status).toBe(409);
    expect(await errorOf(response)).toBe("Connect an EMS account in Settings to search webhook groups.");
  });

  it("finds the caller's groups by a part of their name, ten at most, by name, with nothing secret in the answer", async () => {
    const owner = await createTeam();
    await saveCredential(owner, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    const all = await loadListing(owner, { ...parseListingSearchParams("webhook-groups", {}), fields: ["id", "name"], perPage: 200 });
    if (all.kind !== "ok") throw new Error(`the sandbox listing failed: ${all.kind}`);
    const sample = String(all.items[0]?.name ?? "");
    const part = sample.slice(1, 5).toLowerCase();
    expect(part.length).toBeGreaterThanOrEqual(2);
    const expected = all.items.filter((item) => String(item.name).toLowerCase().includes(part));

    await signInAs(owner);
    const response = await search(part);
    expect(response.status).toBe(200);
    const text = await response.text();
    const body = JSON.parse(text) as { groups: { id: number; name: string }[]; total: number };
    expect(body.total).toBe(expected.length);
    expect(body.groups.length).toBe(Math.min(10, expected.length));
    for (const group of body.groups) {
      expect(Object.keys(group).sort()).toEqual(["id", "name"]);
      expect(group.name.toLowerCase()).toContain(part);
    }
    expect(text).not.toContain(DEMO_CREDENTIALS.consumerSecret);
    expect(text).not.toContain(DEMO_CREDENTIALS.consumerKey);

    const none = await search("no group is called this");
    expect(none.status).toBe(200);
    expect(await none.json()).toEqual({ groups: [], total: 0 });
  });

  it("answers 403 with the EMS's reason when the caller's credentials are rejected", async () => {
    const owner = await createTeam();
    await saveCredential(owner, { baseUrl: sandbox.baseUrl, consumerKey: DEMO_CREDENTIALS.consumerKey, consumerSecret: "not the secret" });
    await signInAs(owner);
    const response = await search("group");
    expect(response.status).toBe(403);
    expect(await errorOf(response)).toMatch(/\S/);
    expect(await prisma.apiCredential.count({ where: { userId: owner.userId } })).toBe(1);
  });
});
