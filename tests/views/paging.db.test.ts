// Issue 24, finding 3: a page shows a bounded number of saved views however many a team has. The
// listing's tabs are the person's favourites and most used views (lib/views/tabs.ts), the rest come
// from "More" a few at a time, and /views is paged (lib/views/directory.ts).
import { describe, expect, it } from "vitest";
import type { Actor } from "@/lib/access/actor";
import { prisma } from "@/lib/db/prisma";
import { resolveListing } from "@/lib/listing-page/resolve";
import { listViewDirectory } from "@/lib/views/directory";
import { MORE_VIEWS_PER_REQUEST, VIEW_TABS_SHOWN, VIEWS_PER_PAGE } from "@/lib/views/limits";
import { listMoreViews, listViewTabs } from "@/lib/views/tabs";
import { createView, setDefaultView, setViewFavourite } from "@/lib/views/views";
import { addMember, createTeam, unique } from "../teams/fixtures";

/** `count` views of a page, named "<prefix> 000"…, straight into the table; their ids by name. */
async function seedViews(
  actor: Actor,
  count: number,
  { scope = "TEAM", page = "webhook-groups", prefix = "View" }: { scope?: "PERSONAL" | "TEAM"; page?: string; prefix?: string } = {},
) {
  await prisma.savedView.createMany({
    data: Array.from({ length: count }, (_, i) => ({
      teamId: actor.teamId,
      ownerId: actor.userId,
      page,
      name: `${prefix} ${String(i).padStart(3, "0")}`,
      query: `filter=${encodeURIComponent(`name=*contains*${"x".repeat(150)}${i}`)}`,
      scope,
    })),
  });
  const rows = await prisma.savedView.findMany({ where: { teamId: actor.teamId, name: { startsWith: `${prefix} ` } }, select: { id: true, name: true } });
  return new Map(rows.map((row) => [row.name, row.id]));
}

const opened = (actor: Actor, viewId: string) => listViewTabs(actor, "webhook-groups", { requestedId: viewId, opensDefault: false });

describe("the listing's tabs", () => {
  it("are the person's favourites, then their most used views, at most VIEW_TABS_SHOWN; the rest are counted for “More”", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const ids = await seedViews(owner, 800);
    await setViewFavourite(member, ids.get("View 700")!, true);
    await setViewFavourite(member, ids.get("View 500")!, true);
    // Used on more occasions than the others (one occasion per 30 minutes: move the last one back).
    for (const [name, times] of [
      ["View 650", 3],
      ["View 300", 2],
      ["View 799", 1],
    ] as const) {
      for (let i = 0; i < times; i++) {
        await opened(member, ids.get(name)!);
        await prisma.savedViewUsage.updateMany({ where: { userId: member.userId }, data: { lastUsedAt: new Date(Date.now() - 60 * 60_000) } });
      }
    }

    const tabs = await listViewTabs(member, "webhook-groups", { requestedId: null, opensDefault: false });
    expect(tabs.total).toBe(800);
    expect(tabs.more).toBe(800 - VIEW_TABS_SHOWN);
    expect(tabs.views).toHaveLength(VIEW_TABS_SHOWN);
    expect(tabs.views.slice(0, 5).map((view) => view.name)).toEqual(["View 500", "View 700", "View 650", "View 300", "View 799"]);
    // The same person's default and the view the address names are there too, wherever they rank.
    await setDefaultView(member, "webhook-groups", ids.get("View 042")!);
    const withDefault = await listViewTabs(member, "webhook-groups", { requestedId: ids.get("View 043")!, opensDefault: false });
    expect(withDefault.views.map((view) => view.name)).toEqual(expect.arrayContaining(["View 042", "View 043"]));
    expect(withDefault.views).toHaveLength(VIEW_TABS_SHOWN + 2);

    // Usage is the person's own: a teammate's tabs are not reordered by it.
    const ownersTabs = await listViewTabs(owner, "webhook-groups", { requestedId: null, opensDefault: false });
    expect(ownersTabs.views.map((view) => view.name)).toEqual(["View 000", "View 001", "View 002", "View 003", "View 004", "View 005", "View 006", "View 007"]);
  });

  it("count an opening once per occasion, only of a view the person may see", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const outsider = await createTeam();
    const ids = await seedViews(owner, 3);
    const personal = await createView(owner, { page: "webhook-groups", name: "Owner's own", query: "", scope: "PERSONAL" });
    const view = ids.get("View 001")!;
    await opened(member, view);
    await opened(member, view);
    expect(await prisma.savedViewUsage.findMany({ where: { userId: member.userId }, select: { viewId: true, useCount: true } })).toEqual([{ viewId: view, useCount: 1 }]);
    await prisma.savedViewUsage.updateMany({ where: { userId: member.userId }, data: { lastUsedAt: new Date(Date.now() - 31 * 60_000) } });
    await opened(member, view);
    expect((await prisma.savedViewUsage.findFirstOrThrow({ where: { userId: member.userId } })).useCount).toBe(2);

    // Another team's view, a teammate's personal view, a view of another page: nothing written.
    await opened(outsider, view);
    await opened(member, personal.id);
    await listViewTabs(member, "events", { requestedId: view, opensDefault: false });
    expect(await prisma.savedViewUsage.count({ where: { OR: [{ userId: outsider.userId }, { viewId: personal.id }] } })).toBe(0);
    expect((await prisma.savedViewUsage.findFirstOrThrow({ where: { userId: member.userId } })).useCount).toBe(2);
    expect((await listViewTabs(outsider, "webhook-groups", { requestedId: view, opensDefault: false })).views).toEqual([]);
  });

  it("carry a bounded page: resolveListing hands the listing the tabs, not the team's 800 views", async () => {
    const owner = await createTeam();
    const ids = await seedViews(owner, 800);
    const resolved = await resolveListing(owner, "webhook-groups", { "per-page": "50", view: ids.get("View 777")! });
    expect(resolved.activeView?.name).toBe("View 777");
    expect(resolved.views.length).toBeLessThanOrEqual(VIEW_TABS_SHOWN + 2);
    expect(resolved.moreViews).toBe(800 - VIEW_TABS_SHOWN);
  });
});

describe("“More”", () => {
  it("lists the views past the tabs, a few at a time, searchable by name, for the actor only", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const outsider = await createTeam();
    await seedViews(owner, 50);
    await seedViews(owner, 5, { scope: "PERSONAL", prefix: "Owner's" });
    await seedViews(owner, 30, { page: "events", prefix: "Event" });

    const first = await listMoreViews(member, "webhook-groups", { search: "", offset: 0 });
    expect(first.total).toBe(50 - VIEW_TABS_SHOWN);
    expect(first.views).toHaveLength(MORE_VIEWS_PER_REQUEST);
    expect(first.nextOffset).toBe(MORE_VIEWS_PER_REQUEST);
    const tabs = await listViewTabs(member, "webhook-groups", { requestedId: null, opensDefault: false });
    const everyOne: string[] = [];
    for (let offset: number | null = 0; offset !== null;) {
      const page = await listMoreViews(member, "webhook-groups", { search: "", offset });
      everyOne.push(...page.views.map((view) => view.name));
      offset = page.nextOffset;
    }
    // Exactly the views that are not tabs: none twice, none of another page, no one's personal view.
    expect(new Set(everyOne).size).toBe(50 - VIEW_TABS_SHOWN);
    expect([...everyOne, ...tabs.views.map((view) => view.name)].sort()).toEqual(Array.from({ length: 50 }, (_, i) => `View ${String(i).padStart(3, "0")}`));
    expect(first.views[0]).toMatchObject({ href: expect.stringMatching(/^\/webhook-groups\?filter=.+&view=/), scope: "TEAM", isFavourite: false });

    expect((await listMoreViews(member, "webhook-groups", { search: "view 04", offset: 0 })).views.map((view) => view.name)).toEqual(
      Array.from({ length: 10 }, (_, i) => `View 04${i}`),
    );
    // The pattern's own characters are only text.
    expect((await listMoreViews(member, "webhook-groups", { search: "%", offset: 0 })).total).toBe(0);
    expect((await listMoreViews(outsider, "webhook-groups", { search: "", offset: 0 })).views).toEqual([]);
    // The owner also sees their own personal views (which rank first, so they are tabs).
    expect((await listMoreViews(owner, "webhook-groups", { search: "", offset: 0 })).total).toBe(55 - VIEW_TABS_SHOWN);
  });
});

describe("/views", () => {
  it("is paged: VIEWS_PER_PAGE at a time, with the range, and a page past the end shows the last one", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    await seedViews(owner, 100, { prefix: `Group ${unique()}` });
    await seedViews(owner, 20, { page: "events", prefix: "Event" });
    await seedViews(owner, 7, { scope: "PERSONAL", prefix: "Hidden" });

    const pageCount = Math.ceil(120 / VIEWS_PER_PAGE);
    const first = await listViewDirectory(member, 1);
    expect(first).toMatchObject({ total: 120, totalByPage: { "webhook-groups": 100, events: 20 }, pageNumber: 1, pageCount, from: 1, to: VIEWS_PER_PAGE });
    expect(first.views).toHaveLength(VIEWS_PER_PAGE);
    expect(first.views.every((view) => view.page === "webhook-groups")).toBe(true);
    const last = await listViewDirectory(member, pageCount);
    expect(last).toMatchObject({ pageNumber: pageCount, from: (pageCount - 1) * VIEWS_PER_PAGE + 1, to: 120 });
    // Grouped by listing page: the events come last, by name.
    expect(last.views.slice(-20).map((view) => view.name)).toEqual(Array.from({ length: 20 }, (_, i) => `Event ${String(i).padStart(3, "0")}`));
    expect(await listViewDirectory(member, 99)).toMatchObject({ pageNumber: pageCount, to: 120 });

    const pages = await Promise.all(Array.from({ length: pageCount }, (_, i) => listViewDirectory(member, i + 1)));
    expect(new Set(pages.flatMap((page) => page.views.map((view) => view.id))).size).toBe(120);
    expect(await listViewDirectory(await createTeam(), 1)).toMatchObject({ total: 0, views: [], from: 0, to: 0, pageCount: 1 });
  });
});
