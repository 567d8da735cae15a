// The saved-view actions (lib/actions/views/*), called as a crafted direct request would call them.
import { describe, expect, it, vi } from "vitest";
vi.mock("next/headers", () => import("./support/next-headers"));
vi.mock("next/cache", () => import("./support/next-cache"));

import { revalidatePath } from "next/cache";
import { prisma } from "@/lib/db/prisma";
import { copyViewAction } from "@/lib/actions/views/copy-view";
import { deleteViewAction } from "@/lib/actions/views/delete-view";
import { saveViewAction } from "@/lib/actions/views/save-view";
import { setDefaultViewAction } from "@/lib/actions/views/set-default-view";
import { updateViewAction } from "@/lib/actions/views/update-view";
import { favouriteViewAction } from "@/lib/actions/views/favourite-view";
import { restoreViewAction } from "@/lib/actions/views/restore-view";
import { createView } from "@/lib/views/views";
import type { Actor } from "@/lib/access/actor";
import { addMember, createTeam, unique } from "@/tests/teams/fixtures";
import { call, expectSignInRedirect, redirectOf } from "./support/call";
import { signedOut, signedOutBeforeEach, signInAs } from "./support/request";

const MANAGE_REFUSAL = "Only owners and admins (and the person who shared it) can change a team view. You can copy it instead.";
const NOT_FOUND = "That view does not exist or is not shared with you.";

const teamView = (owner: Actor, name = `Shared ${unique()}`) => createView(owner, { page: "webhook-groups", name, query: "sort=-id", scope: "TEAM" });
const personalView = (owner: Actor, name = `Mine ${unique()}`) => createView(owner, { page: "events", name, query: "", scope: "PERSONAL" });
const viewsOf = (userId: string) => prisma.savedView.findMany({ where: { ownerId: userId }, orderBy: { createdAt: "asc" } });

signedOutBeforeEach("/views");

describe("saveViewAction", () => {
  it("sends a signed-out caller to sign-in and saves nothing", async () => {
    const owner = await createTeam();
    signedOut({ path: "/webhook-groups?sort=-id" });
    await expectSignInRedirect(call(saveViewAction, { page: "webhook-groups", name: "Sorted", query: "sort=-id" }), "/webhook-groups?sort=-id");
    expect(await viewsOf(owner.userId)).toEqual([]);
  });

  it("answers bad input with field errors and saves nothing", async () => {
    const owner = await createTeam();
    await signInAs(owner);
    expect(await call(saveViewAction, { page: "webhook-groups", name: "   ", query: "" })).toEqual({ status: "error", fieldErrors: { name: "Give the view a name." } });
    expect(await call(saveViewAction, { page: "users", name: "All", query: "", scope: "EVERYONE" })).toEqual({
      status: "error",
      fieldErrors: { page: "Unknown page.", scope: "Choose personal or team." },
    });
    expect(await viewsOf(owner.userId)).toEqual([]);
  });

  it("refuses a name the team already uses", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const shared = await teamView(owner);
    await signInAs(member);
    expect(await call(saveViewAction, { page: "webhook-groups", name: shared.name.toUpperCase(), query: "", scope: "TEAM" })).toEqual({
      status: "error",
      message: `Your team already has a view named “${shared.name.toUpperCase()}”.`,
    });
    expect(await viewsOf(member.userId)).toEqual([]);
  });

  it("saves the view (and the default), then opens it", async () => {
    const owner = await createTeam();
    await signInAs(owner);
    const location = await redirectOf(call(saveViewAction, { page: "events", name: "  Latest   events ", query: "sort=-start_date&page=3", makeDefault: "on" }));
    const [view] = await viewsOf(owner.userId);
    expect(view).toMatchObject({ name: "Latest events", page: "events", scope: "PERSONAL", teamId: owner.teamId });
    expect(location).toBe(`/events?${new URLSearchParams({ ...Object.fromEntries(new URLSearchParams(view!.query)), view: view!.id }).toString()}`);
    expect(await prisma.userDefaultView.findUnique({ where: { userId_page: { userId: owner.userId, page: "events" } } })).toMatchObject({ viewId: view!.id });
    expect(revalidatePath).toHaveBeenCalledWith("/views");
  });
});

describe("updateViewAction", () => {
  it("sends a signed-out caller to sign-in and changes nothing", async () => {
    const owner = await createTeam();
    const view = await personalView(owner);
    await expectSignInRedirect(call(updateViewAction, { viewId: view.id, name: "Renamed" }), "/views");
    expect((await prisma.savedView.findUniqueOrThrow({ where: { id: view.id } })).name).toBe(view.name);
  });

  it("refuses a member renaming a team view someone else shared, and another team's view", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const shared = await teamView(owner);
    const outsider = await createTeam();
    await signInAs(member);
    expect(await call(updateViewAction, { viewId: shared.id, name: "Mine now" })).toEqual({ status: "error", message: MANAGE_REFUSAL });
    await signInAs(outsider);
    expect(await call(updateViewAction, { viewId: shared.id, name: "Mine now" })).toEqual({ status: "error", message: NOT_FOUND });
    expect((await prisma.savedView.findUniqueOrThrow({ where: { id: shared.id } })).name).toBe(shared.name);
  });

  it("answers bad input with field errors and changes nothing", async () => {
    const owner = await createTeam();
    const view = await personalView(owner);
    await signInAs(owner);
    expect(await call(updateViewAction, { viewId: view.id, name: "" })).toEqual({ status: "error", fieldErrors: { name: "Give the view a name." } });
    expect(await call(updateViewAction, { viewId: "../../etc", scope: "TEAM" })).toEqual({ status: "error", fieldErrors: { viewId: "That is not a saved view." } });
    expect(await prisma.savedView.findUniqueOrThrow({ where: { id: view.id } })).toMatchObject({ name: view.name, scope: "PERSONAL" });
  });

  it("renames and shares the view", async () => {
    const owner = await createTeam();
    const view = await personalView(owner);
    await signInAs(owner);
    expect(await call(updateViewAction, { viewId: view.id, name: "Renamed view", scope: "TEAM" })).toEqual({ status: "success", message: "Saved “Renamed view”." });
    expect(await prisma.savedView.findUniqueOrThrow({ where: { id: view.id } })).toMatchObject({ name: "Renamed view", scope: "TEAM" });
    expect(revalidatePath).toHaveBeenCalledWith("/views");
  });
});

describe("deleteViewAction", () => {
  it("sends a signed-out caller to sign-in and deletes nothing", async () => {
    const owner = await createTeam();
    const view = await personalView(owner);
    await expectSignInRedirect(call(deleteViewAction, { viewId: view.id }), "/views");
    expect(await prisma.savedView.findUnique({ where: { id: view.id } })).not.toBeNull();
  });

  it("refuses a member deleting a team view, someone else's personal view, and another team's view", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const shared = await teamView(owner);
    const ownersOwn = await personalView(owner);
    const outsider = await createTeam();
    await signInAs(member);
    expect(await call(deleteViewAction, { viewId: shared.id })).toEqual({ status: "error", message: MANAGE_REFUSAL });
    expect(await call(deleteViewAction, { viewId: ownersOwn.id })).toEqual({ status: "error", message: NOT_FOUND });
    await signInAs(outsider);
    expect(await call(deleteViewAction, { viewId: shared.id })).toEqual({ status: "error", message: NOT_FOUND });
    expect(await prisma.savedView.count({ where: { id: { in: [shared.id, ownersOwn.id] } } })).toBe(2);
  });

  it("answers bad input with a field error", async () => {
    const owner = await createTeam();
    await signInAs(owner);
    expect(await call(deleteViewAction, {})).toEqual({ status: "error", fieldErrors: { viewId: expect.any(String) } });
  });

  it("lets an admin delete a team view someone else shared", async () => {
    const owner = await createTeam();
    const admin = await addMember(owner, "ADMIN");
    const shared = await teamView(owner);
    await signInAs(admin);
    expect(await call(deleteViewAction, { viewId: shared.id })).toEqual({
      status: "success",
      message: `Deleted “${shared.name}”.`,
      data: { page: "webhook-groups", name: shared.name, query: "sort=-id", scope: "TEAM", wasDefault: false, wasFavourite: false },
    });
    expect(await prisma.savedView.findUnique({ where: { id: shared.id } })).toBeNull();
  });
});

describe("restoreViewAction (Undo after a deletion)", () => {
  it("sends a signed-out caller to sign-in and makes nothing", async () => {
    await expectSignInRedirect(call(restoreViewAction, { page: "events", name: "Back", query: "", scope: "PERSONAL" }), "/views");
    expect(await prisma.savedView.count({ where: { name: "Back" } })).toBe(0);
  });

  it("puts back what a deletion answered: name, scope, options, default and favourite", async () => {
    const owner = await createTeam();
    await signInAs(owner);
    const view = await personalView(owner);
    await call(setDefaultViewAction, { page: "events", viewId: view.id });
    await call(favouriteViewAction, { viewId: view.id, favourite: "on" });
    const deleted = await call(deleteViewAction, { viewId: view.id });
    if (deleted.status !== "success" || !deleted.data) throw new Error("expected the deleted view");
    expect(deleted.data).toMatchObject({ wasDefault: true, wasFavourite: true });

    const d = deleted.data;
    const restored = await call(restoreViewAction, {
      page: d.page,
      name: d.name,
      query: d.query,
      scope: d.scope,
      makeDefault: d.wasDefault ? "on" : "",
      favourite: d.wasFavourite ? "on" : "",
    });
    expect(restored).toMatchObject({ status: "success", message: `Restored “${view.name}”.` });
    const [again] = await viewsOf(owner.userId);
    expect(again).toMatchObject({ name: view.name, scope: "PERSONAL", query: view.query, page: "events", teamId: owner.teamId });
    expect(restored.status === "success" && restored.data?.href).toBe(`/events?view=${again!.id}`);
    expect(await prisma.userDefaultView.findUnique({ where: { userId_page: { userId: owner.userId, page: "events" } } })).toMatchObject({ viewId: again!.id });
    expect(await prisma.savedViewFavourite.count({ where: { userId: owner.userId, viewId: again!.id } })).toBe(1);
  });

  it("never takes a team, an owner or an id from a crafted payload, and re-checks the options and the name", async () => {
    const victim = await createTeam();
    const victimView = await teamView(victim);
    const attacker = await createTeam();
    await signInAs(attacker);
    const result = await call(restoreViewAction, {
      page: "webhook-groups",
      name: "Planted",
      query: "sort=-id&filter=bogus%3Dx&view=zzz",
      scope: "TEAM",
      teamId: victim.teamId,
      ownerId: victim.userId,
      id: victimView.id,
    });
    expect(result).toMatchObject({ status: "success" });
    const planted = await prisma.savedView.findFirstOrThrow({ where: { name: "Planted" } });
    expect(planted).toMatchObject({ teamId: attacker.teamId, ownerId: attacker.userId, query: "sort=-id" });
    expect(planted.id).not.toBe(victimView.id);
    expect(await prisma.savedView.count({ where: { teamId: victim.teamId } })).toBe(1);
    expect((await prisma.savedView.findUniqueOrThrow({ where: { id: victimView.id } })).name).toBe(victimView.name);

    // A name the team uses meanwhile is refused, as a save would be; bad fields are field errors.
    expect(await call(restoreViewAction, { page: "webhook-groups", name: "planted", query: "", scope: "TEAM" })).toEqual({
      status: "error",
      message: "Your team already has a view named “planted”.",
    });
    expect(await call(restoreViewAction, { page: "users", name: "x", query: "", scope: "EVERYONE" })).toEqual({
      status: "error",
      fieldErrors: { page: "Unknown page.", scope: "Choose personal or team." },
    });
  });
});

describe("favouriteViewAction", () => {
  it("marks and unmarks a view the caller can see, for the caller only", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const shared = await teamView(owner);
    await signInAs(member);
    expect(await call(favouriteViewAction, { viewId: shared.id, favourite: "on" })).toEqual({ status: "success", message: `Added “${shared.name}” to favourites.` });
    expect(await call(favouriteViewAction, { viewId: shared.id, favourite: "on" })).toMatchObject({ status: "success" });
    expect(await prisma.savedViewFavourite.findMany({ where: { viewId: shared.id } })).toEqual([expect.objectContaining({ userId: member.userId })]);
    expect(await call(favouriteViewAction, { viewId: shared.id, favourite: "" })).toEqual({ status: "success", message: `Removed “${shared.name}” from favourites.` });
    expect(await prisma.savedViewFavourite.count({ where: { viewId: shared.id } })).toBe(0);
  });

  it("answers “not found” for another team's view and a teammate's personal view, and marks nothing", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const ownersOwn = await personalView(owner);
    const outsider = await createTeam();
    const shared = await teamView(owner);
    await signInAs(outsider);
    expect(await call(favouriteViewAction, { viewId: shared.id, favourite: "on" })).toEqual({ status: "error", message: NOT_FOUND });
    await signInAs(member);
    expect(await call(favouriteViewAction, { viewId: ownersOwn.id, favourite: "on" })).toEqual({ status: "error", message: NOT_FOUND });
    expect(await call(favouriteViewAction, { viewId: "no-such-view", favourite: "on" })).toEqual({ status: "error", message: NOT_FOUND });
    expect(await call(favouriteViewAction, { viewId: shared.id })).toEqual({ status: "error", fieldErrors: { favourite: "Choose add or remove." } });
    expect(await prisma.savedViewFavourite.count({ where: { viewId: { in: [shared.id, ownersOwn.id] } } })).toBe(0);
  });
});

describe("copyViewAction", () => {
  it("sends a signed-out caller to sign-in and copies nothing", async () => {
    const owner = await createTeam();
    const view = await personalView(owner);
    await expectSignInRedirect(call(copyViewAction, { viewId: view.id }), "/views");
    expect(await viewsOf(owner.userId)).toHaveLength(1);
  });

  it("refuses another team's view and a teammate's personal view", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const ownersOwn = await personalView(owner);
    const outsider = await createTeam();
    await signInAs(member);
    expect(await call(copyViewAction, { viewId: ownersOwn.id })).toEqual({ status: "error", message: NOT_FOUND });
    await signInAs(outsider);
    expect(await call(copyViewAction, { viewId: ownersOwn.id })).toEqual({ status: "error", message: NOT_FOUND });
    expect(await viewsOf(member.userId)).toEqual([]);
    expect(await viewsOf(outsider.userId)).toEqual([]);
  });

  it("answers bad input with field errors and copies nothing", async () => {
    const owner = await createTeam();
    const view = await personalView(owner);
    await signInAs(owner);
    expect(await call(copyViewAction, { viewId: "not/an/id" })).toEqual({ status: "error", fieldErrors: { viewId: "That is not a saved view." } });
    expect(await call(copyViewAction, { viewId: view.id, name: "x".repeat(81) })).toEqual({
      status: "error",
      fieldErrors: { name: "A view's name can be at most 80 characters." },
    });
    expect(await viewsOf(owner.userId)).toHaveLength(1);
  });

  it("gives a member a personal copy of a team view", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const shared = await teamView(owner, "Sync groups");
    await signInAs(member);
    expect(await call(copyViewAction, { viewId: shared.id })).toEqual({ status: "success", message: "Copied as “Sync groups (copy)”." });
    expect(await viewsOf(member.userId)).toEqual([expect.objectContaining({ name: "Sync groups (copy)", scope: "PERSONAL", query: shared.query })]);
    expect(revalidatePath).toHaveBeenCalledWith("/views");
  });
});

describe("setDefaultViewAction", () => {
  const defaultOf = (userId: string, page: string) => prisma.userDefaultView.findUnique({ where: { userId_page: { userId, page } } });

  it("sends a signed-out caller to sign-in and sets nothing", async () => {
    const owner = await createTeam();
    const view = await personalView(owner);
    await expectSignInRedirect(call(setDefaultViewAction, { page: "events", viewId: view.id }), "/views");
    expect(await defaultOf(owner.userId, "events")).toBeNull();
  });

  it("refuses another team's view and a view of another page", async () => {
    const owner = await createTeam();
    const view = await personalView(owner);
    const outsider = await createTeam();
    await signInAs(outsider);
    expect(await call(setDefaultViewAction, { page: "events", viewId: view.id })).toEqual({ status: "error", message: NOT_FOUND });
    await signInAs(owner);
    expect(await call(setDefaultViewAction, { page: "webhook-groups", viewId: view.id })).toEqual({ status: "error", message: "That view belongs to another page." });
    expect(await defaultOf(outsider.userId, "events")).toBeNull();
    expect(await defaultOf(owner.userId, "webhook-groups")).toBeNull();
  });

  it("answers bad input with field errors", async () => {
    const owner = await createTeam();
    await signInAs(owner);
    expect(await call(setDefaultViewAction, { page: "admin", viewId: "" })).toEqual({ status: "error", fieldErrors: { page: "Unknown page." } });
  });

  it("sets a team view as the caller's default, and clears it", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const shared = await teamView(owner);
    await signInAs(member);
    expect(await call(setDefaultViewAction, { page: "webhook-groups", viewId: shared.id })).toEqual({ status: "success", message: "Default view set." });
    expect(await defaultOf(member.userId, "webhook-groups")).toMatchObject({ viewId: shared.id });
    expect(await defaultOf(owner.userId, "webhook-groups")).toBeNull();
    expect(await call(setDefaultViewAction, { page: "webhook-groups", viewId: "" })).toEqual({ status: "success", message: "No default view now." });
    expect(await defaultOf(member.userId, "webhook-groups")).toBeNull();
  });
});

// Issue 24, finding 8: a view's name is shown to the whole team; with a bidi override
// ("\u202Eweiv" reads as "view") or a zero-width character it could pose as another view.
describe("a view's name with invisible characters (every action that takes a name)", () => {
  const REFUSED = { status: "error", fieldErrors: { name: "The name has invisible control characters; type it again." } };

  it("is refused with a field message, and nothing is saved, renamed, copied or restored", async () => {
    const owner = await createTeam();
    const view = await personalView(owner);
    await signInAs(owner);
    for (const name of ["Latest\u202Eevil", "Lat\u200Best", "\u2066Shared\u2069", "Admin\u200F"]) {
      expect(await call(saveViewAction, { page: "webhook-groups", name, query: "" }), name).toEqual(REFUSED);
      expect(await call(updateViewAction, { viewId: view.id, name }), name).toEqual(REFUSED);
      expect(await call(copyViewAction, { viewId: view.id, name }), name).toEqual(REFUSED);
      expect(await call(restoreViewAction, { page: "events", name, query: "", scope: "PERSONAL" }), name).toEqual(REFUSED);
    }
    expect((await viewsOf(owner.userId)).map((saved) => saved.name)).toEqual([view.name]);
  });
});

describe("the caps on views and on their options (issue 24, finding 3)", () => {
  const PERSON_REFUSAL = "You have 100 saved views, the most one person can keep. Delete one to save another.";
  const TEAM_REFUSAL =
    "Your team shares 500 views, the most a team can share. Delete a team view (or make one personal) to share another; you can still save this one for yourself.";
  const TOO_LONG = "These options are too long to save as a view (at most 2,000 characters): remove some filters or ids first.";
  const seed = (actor: Actor, count: number, scope: "PERSONAL" | "TEAM", ownerId: string | null = actor.userId) =>
    prisma.savedView.createMany({
      data: Array.from({ length: count }, (_, i) => ({ teamId: actor.teamId, ownerId, page: "events", name: `Seeded ${unique()} ${i}`, query: "", scope })),
    });
  const longQuery = Array.from({ length: 12 }, (_, i) => `filter=${encodeURIComponent(`name=*contains*${i}${"a".repeat(190)}`)}`).join("&");

  it("refuses a save, a copy and a restore past the person's 100 views with a form message, and saves nothing", async () => {
    const owner = await createTeam();
    await seed(owner, 99, "PERSONAL");
    const hundredth = await teamView(owner);
    await signInAs(owner);
    expect(await call(saveViewAction, { page: "events", name: "One more", query: "sort=-id", then: "answer" })).toEqual({ status: "error", message: PERSON_REFUSAL });
    expect(await call(copyViewAction, { viewId: hundredth.id })).toEqual({ status: "error", message: PERSON_REFUSAL });
    expect(await call(restoreViewAction, { page: "events", name: "Back", query: "", scope: "PERSONAL", makeDefault: "on" })).toEqual({
      status: "error",
      message: PERSON_REFUSAL,
    });
    expect(await prisma.savedView.count({ where: { ownerId: owner.userId } })).toBe(100);
    expect(await prisma.userDefaultView.count({ where: { userId: owner.userId } })).toBe(0);
  });

  it("refuses sharing a 501st team view, by a save, a restore or a change of scope", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    await seed(owner, 500, "TEAM", null);
    const mine = await personalView(member);
    await signInAs(member);
    expect(await call(saveViewAction, { page: "events", name: "Ours", query: "", scope: "TEAM", then: "answer" })).toEqual({ status: "error", message: TEAM_REFUSAL });
    expect(await call(restoreViewAction, { page: "events", name: "Ours", query: "", scope: "TEAM" })).toEqual({ status: "error", message: TEAM_REFUSAL });
    expect(await call(updateViewAction, { viewId: mine.id, scope: "TEAM" })).toEqual({ status: "error", message: TEAM_REFUSAL });
    expect(await prisma.savedView.count({ where: { teamId: owner.teamId, scope: "TEAM" } })).toBe(500);
    expect(await call(saveViewAction, { page: "events", name: "Only mine", query: "", scope: "PERSONAL", then: "answer" })).toMatchObject({ status: "success" });
  });

  it("refuses options longer than 2,000 characters as a field error, on a save, a change and a restore", async () => {
    const owner = await createTeam();
    const view = await personalView(owner);
    await signInAs(owner);
    expect(longQuery.length).toBeGreaterThan(2000);
    expect(await call(saveViewAction, { page: "webhook-groups", name: "Long", query: longQuery, then: "answer" })).toEqual({
      status: "error",
      fieldErrors: { query: TOO_LONG },
    });
    expect(await call(updateViewAction, { viewId: view.id, query: longQuery })).toEqual({ status: "error", fieldErrors: { query: TOO_LONG } });
    expect(await call(restoreViewAction, { page: "webhook-groups", name: "Long", query: longQuery, scope: "PERSONAL" })).toEqual({
      status: "error",
      fieldErrors: { query: TOO_LONG },
    });
    // Short as sent, long as stored (every "é" is six characters once encoded): a form message.
    const accented = Array.from({ length: 7 }, (_, i) => `filter=name=*contains*${i}${"é".repeat(199)}`).join("&");
    expect(await call(saveViewAction, { page: "webhook-groups", name: "Accents", query: accented, then: "answer" })).toEqual({ status: "error", message: TOO_LONG });
    expect(await prisma.savedView.count({ where: { ownerId: owner.userId } })).toBe(1);
  });
});
