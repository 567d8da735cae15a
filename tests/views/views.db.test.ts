import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { isSafeError } from "@/lib/errors";
import { copyView, createView, deleteView, getVisibleView, listViews, restoreView, setDefaultView, setViewFavourite, updateView, viewHref } from "@/lib/views/views";
import type { Actor } from "@/lib/access/actor";
import { addMember, createTeam } from "../teams/fixtures";

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isSafeError(error)) return error.code;
    throw error;
  }
  throw new Error("expected a refusal");
}

/** The person's default view for a page, as the listing pages find it (lib/listing-page/resolve.ts). */
async function defaultViewId(actor: Actor, page: "events" | "webhook-groups"): Promise<string | null> {
  return (await listViews(actor, page)).find((view) => view.isDefault)?.id ?? null;
}

describe("saved views", () => {
  it("stores the canonical options, and a view's link carries them", async () => {
    const owner = await createTeam();
    const view = await createView(owner, {
      page: "webhook-groups",
      name: "  Sync   groups ",
      query: "sort=-id&filter=name%3D*contains*sync&page=3&view=zzz&fields=id,bogus",
      scope: "PERSONAL",
    });
    expect(view.name).toBe("Sync groups");
    // Page, view id and anything the page would ignore are not part of a view.
    expect(view.query).toBe("fields=id&filter=name%3D*contains*sync&sort=-id");
    expect(viewHref(view)).toBe(`/webhook-groups?fields=id&filter=name%3D*contains*sync&sort=-id&view=${view.id}`);
  });

  it("names copies of one view “(copy)”, “(copy 2)”, “(copy 3)”: a second copy does not fail on the name", async () => {
    const owner = await createTeam();
    const source = await createView(owner, { page: "events", name: "Live", query: "sort=id", scope: "TEAM" });
    const names = [];
    for (let i = 0; i < 3; i++) names.push((await copyView(owner, source.id)).name);
    expect(names).toEqual(["Live (copy)", "Live (copy 2)", "Live (copy 3)"]);
  });

  it("keeps personal views to their owner and shows team views to the team only", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const admin = await addMember(owner, "ADMIN");
    const outsider = await createTeam();
    const personal = await createView(owner, { page: "events", name: "Mine", query: "sort=id", scope: "PERSONAL" });
    const team = await createView(member, { page: "events", name: "Ours", query: "sort=-id", scope: "TEAM" });

    expect((await listViews(owner, "events")).map((v) => v.name).sort()).toEqual(["Mine", "Ours"]);
    expect((await listViews(member, "events")).map((v) => v.name)).toEqual(["Ours"]);
    expect((await listViews(admin)).map((v) => v.name)).toEqual(["Ours"]);
    expect(await listViews(outsider)).toEqual([]);

    // Crafted ids: nothing about another's view leaks, and nothing changes.
    expect(await getVisibleView(admin, personal.id)).toBeNull();
    expect(await getVisibleView(outsider, team.id)).toBeNull();
    expect(await refusal(updateView(admin, personal.id, { name: "Taken over" }))).toBe("not_found");
    expect(await refusal(deleteView(outsider, team.id))).toBe("not_found");
    expect(await refusal(copyView(outsider, team.id))).toBe("not_found");
    expect(await refusal(setDefaultView(outsider, "events", team.id))).toBe("not_found");
    expect(await refusal(setDefaultView(member, "events", personal.id))).toBe("not_found");
    expect((await prisma.savedView.findUniqueOrThrow({ where: { id: personal.id } })).name).toBe("Mine");
  });

  it("lets owners, admins and the maker manage a team view; other members copy it", async () => {
    const owner = await createTeam();
    const maker = await addMember(owner, "MEMBER", "maker");
    const member = await addMember(owner, "MEMBER");
    const admin = await addMember(owner, "ADMIN");
    const view = await createView(maker, { page: "webhook-groups", name: "Shared", query: "expand=webhooks", scope: "TEAM" });

    expect(await refusal(updateView(member, view.id, { name: "Mine now" }))).toBe("forbidden");
    expect(await refusal(deleteView(member, view.id))).toBe("forbidden");
    const copy = await copyView(member, view.id);
    expect(copy).toMatchObject({ name: "Shared (copy)", scope: "PERSONAL", ownerId: member.userId, query: "expand=webhooks" });
    expect((await copyView(member, view.id)).name).toBe("Shared (copy 2)");

    await updateView(admin, view.id, { name: "Shared by the team" });
    await updateView(maker, view.id, { query: "expand=webhooks&sort=name" });
    // Only the maker can take it back to personal (an admin would make it someone else's private view).
    expect(await refusal(updateView(admin, view.id, { scope: "PERSONAL" }))).toBe("forbidden");
    expect((await prisma.savedView.findUniqueOrThrow({ where: { id: view.id } })).query).toBe("expand=webhooks&sort=name");
    await deleteView(owner, view.id);
    expect(await prisma.savedView.findUnique({ where: { id: view.id } })).toBeNull();
  });

  it("refuses a second view of the same name in the same place", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    await createView(owner, { page: "events", name: "Live", query: "", scope: "TEAM" });
    expect(await refusal(createView(member, { page: "events", name: "live", query: "", scope: "TEAM" }))).toBe("name_taken");
    // A personal view may share a team view's name; another page is another place.
    await createView(member, { page: "events", name: "Live", query: "", scope: "PERSONAL" });
    await createView(member, { page: "webhook-groups", name: "Live", query: "", scope: "PERSONAL" });
  });

  it("audits sharing with the team", async () => {
    const owner = await createTeam();
    const view = await createView(owner, { page: "events", name: "Later shared", query: "", scope: "PERSONAL" });
    await updateView(owner, view.id, { scope: "TEAM" });
    const records = await prisma.auditLog.findMany({ where: { teamId: owner.teamId, action: "view.shared" } });
    expect(records.map((r) => r.target)).toEqual([view.id]);
  });

  it("has one default per person and page, only among views they can see", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const team = await createView(owner, { page: "events", name: "Team default", query: "sort=-id", scope: "TEAM" });
    const mine = await createView(member, { page: "events", name: "Mine", query: "sort=name", scope: "PERSONAL" });
    await setDefaultView(member, "events", team.id);
    expect(await defaultViewId(member, "events")).toBe(team.id);
    await setDefaultView(member, "events", mine.id);
    expect(await defaultViewId(member, "events")).toBe(mine.id);
    expect(await refusal(setDefaultView(member, "webhook-groups", mine.id))).toBe("wrong_page");
    await setDefaultView(member, "events", null);
    expect(await defaultViewId(member, "events")).toBeNull();

    // A team view that stops being shared is no longer a teammate's default.
    await setDefaultView(member, "events", team.id);
    await updateView(owner, team.id, { scope: "PERSONAL" });
    expect(await defaultViewId(member, "events")).toBeNull();
  });

  it("keeps favourites per person, only on views they can see, and gone with the view", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const outsider = await createTeam();
    const shared = await createView(owner, { page: "events", name: "Shared", query: "", scope: "TEAM" });
    const mine = await createView(owner, { page: "events", name: "Mine", query: "sort=id", scope: "PERSONAL" });
    await setViewFavourite(member, shared.id, true);
    const favourites = async (actor: Actor) => (await listViews(actor, "events")).filter((v) => v.isFavourite).map((v) => v.name);
    expect(await favourites(member)).toEqual(["Shared"]);
    expect(await favourites(owner)).toEqual([]);
    expect(await refusal(setViewFavourite(outsider, shared.id, true))).toBe("not_found");
    expect(await refusal(setViewFavourite(member, mine.id, true))).toBe("not_found");
    await setViewFavourite(member, shared.id, false);
    expect(await favourites(member)).toEqual([]);
    await setViewFavourite(owner, mine.id, true);
    await deleteView(owner, mine.id);
    expect(await prisma.savedViewFavourite.count({ where: { viewId: mine.id } })).toBe(0);
  });

  it("deletes a view answering what to restore, and restores it as the restorer, in their own team", async () => {
    const owner = await createTeam();
    const maker = await addMember(owner, "MEMBER", "maker");
    const admin = await addMember(owner, "ADMIN");
    const shared = await createView(maker, { page: "events", name: "Live now", query: "filter=status%3Dlive&sort=-start_date", scope: "TEAM" });
    await setDefaultView(admin, "events", shared.id);
    const deleted = await deleteView(admin, shared.id);
    expect(deleted).toEqual({ page: "events", name: "Live now", query: shared.query, scope: "TEAM", wasDefault: true, wasFavourite: false });
    expect(await defaultViewId(admin, "events")).toBeNull();

    const restored = await restoreView(admin, { ...deleted, makeDefault: deleted.wasDefault, favourite: true });
    expect(restored).toMatchObject({ name: "Live now", scope: "TEAM", query: shared.query, teamId: owner.teamId, ownerId: admin.userId });
    expect(await defaultViewId(admin, "events")).toBe(restored.id);
    expect((await listViews(maker, "events")).map((v) => v.name)).toEqual(["Live now"]);

    // What another team deleted cannot come back in it through a restore: it lands in the caller's team.
    const outsider = await createTeam();
    const planted = await restoreView(outsider, { ...deleted, makeDefault: false, favourite: false });
    expect(planted.teamId).toBe(outsider.teamId);
    expect((await listViews(maker, "events")).map((v) => v.id)).toEqual([restored.id]);
  });
});
