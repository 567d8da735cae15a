// The saved-view actions (lib/actions/views/*), called as a crafted direct request would call them.
import { beforeEach, describe, expect, it, vi } from "vitest";
vi.mock("next/headers", () => import("./support/next-headers"));
vi.mock("next/cache", () => import("./support/next-cache"));

import { revalidatePath } from "next/cache";
import { prisma } from "@/lib/db/prisma";
import { copyViewAction } from "@/lib/actions/views/copy-view";
import { deleteViewAction } from "@/lib/actions/views/delete-view";
import { saveViewAction } from "@/lib/actions/views/save-view";
import { setDefaultViewAction } from "@/lib/actions/views/set-default-view";
import { updateViewAction } from "@/lib/actions/views/update-view";
import { createView } from "@/lib/views/views";
import type { Actor } from "@/lib/auth/session";
import { addMember, createTeam, unique } from "@/tests/teams/fixtures";
import { call, expectSignInRedirect, redirectOf } from "./support/call";
import { signInAs, signedOut } from "./support/request";

const MANAGE_REFUSAL = "Only owners and admins (and the person who shared it) can change a team view. You can copy it instead.";
const NOT_FOUND = "That view does not exist or is not shared with you.";

const teamView = (owner: Actor, name = `Shared ${unique()}`) => createView(owner, { page: "webhook-groups", name, query: "sort=-id", scope: "TEAM" });
const personalView = (owner: Actor, name = `Mine ${unique()}`) => createView(owner, { page: "events", name, query: "", scope: "PERSONAL" });
const viewsOf = (userId: string) => prisma.savedView.findMany({ where: { ownerId: userId }, orderBy: { createdAt: "asc" } });

beforeEach(() => {
  signedOut({ path: "/views" });
  vi.mocked(revalidatePath).mockClear();
});

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
    expect(await call(deleteViewAction, { viewId: shared.id })).toEqual({ status: "success", message: "View deleted." });
    expect(await prisma.savedView.findUnique({ where: { id: shared.id } })).toBeNull();
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
