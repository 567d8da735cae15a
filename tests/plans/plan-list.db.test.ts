import type { PlanStatus } from "@/lib/generated/prisma/enums";
import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { listPlans } from "@/lib/plans/page";
import { addMember, createTeam } from "../teams/fixtures";

/** The plans list's filters (app/(portal)/plans): by state, waiting for my review, mine, words of the title; a team's own only. */
describe("the plans list", () => {
  it("narrows by review, author and title, and never shows another team's plans", async () => {
    const owner = await createTeam();
    const admin = await addMember(owner, "ADMIN");
    const member = await addMember(owner, "MEMBER");
    const stranger = await createTeam();
    const plan = (authorId: string, status: PlanStatus, title: string, teamId = owner.teamId) => ({ teamId, accountKey: "account", title, status, authorId });
    await prisma.changePlan.createMany({
      data: [
        plan(member.userId, "submitted", "Move the Zürich hooks to https"),
        plan(admin.userId, "submitted", "Rotate the API key"),
        plan(member.userId, "draft", "Rotate the other key"),
        plan(owner.userId, "applied", "Rename ZüRICH ops"),
        plan(stranger.userId, "submitted", "Rotate everything", stranger.teamId),
      ],
    });
    const titles = async (...args: Parameters<typeof listPlans>) => (await listPlans(...args)).items.map((item) => item.title).sort();

    expect(await titles(admin, "review")).toEqual(["Move the Zürich hooks to https"]);
    expect(await titles(owner, "review")).toEqual(["Move the Zürich hooks to https", "Rotate the API key"]);
    expect(await titles(member, "review")).toEqual([]);
    expect(await titles(member, "all", 1, { mine: true })).toEqual(["Move the Zürich hooks to https", "Rotate the other key"]);
    // Case is ignored as the database folds it (letters beyond ASCII depend on its locale).
    expect(await titles(owner, "all", 1, { query: "  zürich " })).toEqual(["Move the Zürich hooks to https", "Rename ZüRICH ops"]);
    expect(await titles(owner, "open", 1, { query: "rotate" })).toEqual(["Rotate the API key", "Rotate the other key"]);
    // Hostile text is only words to look for.
    expect(await titles(owner, "all", 1, { query: "%' OR 1=1 --" })).toEqual([]);
    expect(await titles(stranger, "all")).toEqual(["Rotate everything"]);
  });
});
