import { describe, expect, it } from "vitest";
import type { Actor } from "@/lib/access/actor";
import { resolveListing, type ResolvedListing } from "@/lib/listing-page/resolve";
import { createView, setDefaultView, updateView, viewHref } from "@/lib/views/views";
import { addMember, createTeam } from "../teams/fixtures";

/** resolveListing either answers or redirects (next/navigation's redirect throws): which one, and where to. */
async function resolve(actor: Actor, resource: "events" | "webhook-groups", search: string): Promise<{ redirect: string } | ResolvedListing> {
  try {
    return await resolveListing(actor, resource, new URLSearchParams(search));
  } catch (error) {
    const digest = (error as { digest?: unknown }).digest;
    if (typeof digest === "string" && digest.startsWith("NEXT_REDIRECT;")) return { redirect: digest.split(";")[2] };
    throw error;
  }
}

describe("a listing page's default view (resolveListing)", () => {
  it("sends a bare address to the person's default view, with its options in the address", async () => {
    const owner = await createTeam();
    const view = await createView(owner, { page: "events", name: "Live first", query: "sort=-start_date&filter=status%3Dlive", scope: "PERSONAL" });
    await setDefaultView(owner, "events", view.id);

    const outcome = await resolve(owner, "events", "");
    expect(outcome).toEqual({ redirect: viewHref(view) });
    // A view stores its options in canonical order.
    expect(viewHref(view)).toBe(`/events?filter=status%3Dlive&sort=-start_date&view=${view.id}`);

    // Following that address opens the view, unmodified.
    const opened = (await resolve(owner, "events", viewHref(view).split("?")[1])) as ResolvedListing;
    expect(opened.activeView?.id).toBe(view.id);
    expect(opened.modified).toBe(false);
    expect(opened.state.filters).toEqual([{ field: "status", operator: "=", value: "live" }]);
  });

  it("opens a default view without options in place, as the active view", async () => {
    const owner = await createTeam();
    const view = await createView(owner, { page: "webhook-groups", name: "Everything", query: "", scope: "PERSONAL" });
    await setDefaultView(owner, "webhook-groups", view.id);

    const outcome = (await resolve(owner, "webhook-groups", "")) as ResolvedListing;
    expect(outcome.state.view).toBe(view.id);
    expect(outcome.activeView?.id).toBe(view.id);
    expect(outcome.canManageActiveView).toBe(true);
    expect(outcome.modified).toBe(false);
  });

  it("applies no default when the address asks for none, carries options, or is another page's", async () => {
    const owner = await createTeam();
    const view = await createView(owner, { page: "events", name: "Sorted", query: "sort=name", scope: "PERSONAL" });
    await setDefaultView(owner, "events", view.id);

    const none = (await resolve(owner, "events", "view=none")) as ResolvedListing;
    expect(none.activeView).toBeNull();
    expect(none.state.view).toBeNull();
    // No view's sort: the events' own default order, by start date.
    expect(none.state.sort).toEqual([{ field: "start_date", direction: "asc" }]);

    const withOptions = (await resolve(owner, "events", "sort=-id")) as ResolvedListing;
    expect(withOptions.activeView).toBeNull();
    expect(withOptions.state.sort).toEqual([{ field: "id", direction: "desc" }]);

    const otherPage = (await resolve(owner, "webhook-groups", "")) as ResolvedListing;
    expect(otherPage.activeView).toBeNull();
  });

  it("follows a teammate's shared view as a default only while it is shared", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const shared = await createView(owner, { page: "events", name: "Team default", query: "", scope: "TEAM" });
    await setDefaultView(member, "events", shared.id);

    const whileShared = (await resolve(member, "events", "")) as ResolvedListing;
    expect(whileShared.activeView?.id).toBe(shared.id);
    expect(whileShared.canManageActiveView).toBe(false);

    await updateView(owner, shared.id, { scope: "PERSONAL" });
    const afterwards = (await resolve(member, "events", "")) as ResolvedListing;
    expect(afterwards.activeView).toBeNull();
    expect(afterwards.state.view).toBeNull();
    expect(afterwards.state.notices).toEqual([]);
  });
});
