// GET /api/views/more (app/api/views/more/route.ts), the tabs' "More" list, called as a crafted
// request would call it: signed out, with bad input, from another team, and as intended.
import { beforeEach, describe, expect, it, vi } from "vitest";
vi.mock("next/headers", () => import("../actions/support/next-headers"));

import { GET } from "@/app/api/views/more/route";
import { prisma } from "@/lib/db/prisma";
import { MORE_VIEWS_PER_REQUEST, VIEW_TABS_SHOWN } from "@/lib/views/limits";
import type { Actor } from "@/lib/access/actor";
import { signInAs, signedOut } from "../actions/support/request";
import { addMember, createTeam } from "../teams/fixtures";

beforeEach(() => signedOut({ path: "/api/views/more" }));

const more = (query: string) => GET(new Request(`http://localhost:3000/api/views/more?${query}`));
const seed = (actor: Actor, count: number, scope: "PERSONAL" | "TEAM") =>
  prisma.savedView.createMany({
    data: Array.from({ length: count }, (_, i) => ({
      teamId: actor.teamId,
      ownerId: actor.userId,
      page: "events",
      name: `${scope} ${String(i).padStart(2, "0")}`,
      query: "",
      scope,
    })),
  });

describe("GET /api/views/more", () => {
  it("answers 401 signed out and 400 to a bad request, never cached", async () => {
    let response = await more("page=events");
    expect(response.status).toBe(401);
    expect(response.headers.get("cache-control")).toContain("no-store");
    await signInAs(await createTeam());
    expect((await more("page=users")).status).toBe(400);
    expect((await more(`page=events&q=${"x".repeat(81)}`)).status).toBe(400);
    expect((await more("page=events&offset=-1")).status).toBe(400);
    response = await more("page=events");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ views: [], total: 0, nextOffset: null });
  });

  it("lists the caller's views past the tabs, a few at a time: never a teammate's personal view or another team's", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const outsider = await createTeam();
    await seed(owner, 40, "TEAM");
    await seed(owner, 10, "PERSONAL");
    await seed(outsider, 30, "TEAM");

    await signInAs(member);
    const body = (await (await more("page=events")).json()) as { views: { name: string; href: string }[]; total: number; nextOffset: number | null };
    expect(body.total).toBe(40 - VIEW_TABS_SHOWN);
    expect(body.views).toHaveLength(MORE_VIEWS_PER_REQUEST);
    expect(body.nextOffset).toBe(MORE_VIEWS_PER_REQUEST);
    expect(body.views.every((view) => view.name.startsWith("TEAM ") && view.href.startsWith("/events?view="))).toBe(true);
    const rest = (await (await more(`page=events&offset=${body.nextOffset}`)).json()) as { views: unknown[]; nextOffset: number | null };
    expect(rest.views).toHaveLength(40 - VIEW_TABS_SHOWN - MORE_VIEWS_PER_REQUEST);
    expect(rest.nextOffset).toBeNull();
    expect(((await (await more("page=events&q=PERSONAL")).json()) as { total: number }).total).toBe(0);
  });

  it("a control character in the search is a space: a NUL never reaches PostgreSQL (which refuses it: a 500)", async () => {
    const owner = await createTeam();
    await seed(owner, VIEW_TABS_SHOWN + 3, "TEAM");
    await signInAs(owner);
    const response = await more("page=events&q=TEAM%000");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(await (await more("page=events&q=TEAM%200")).json());
  });
});
