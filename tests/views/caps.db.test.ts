// Issue 24, finding 3: how many saved views there may be, and how long their options (lib/views/caps.ts,
// lib/views/limits.ts). One member with 800 team views made every teammate's pages heavy: now a person
// owns at most VIEWS_MAX_PER_PERSON views (personal and shared together), a team shares at most
// VIEWS_MAX_PER_TEAM, and a view's stored options are at most MAX_VIEW_QUERY_LENGTH characters. The
// caps hold under concurrent saves (the race tests run against the real PostgreSQL server too).
import { describe, expect, it } from "vitest";
import { restoreEnvAfterEach } from "@/tests/support/env-per-test";
import type { Actor } from "@/lib/access/actor";
import { prisma } from "@/lib/db/prisma";
import { isSafeError } from "@/lib/errors";
import { MAX_VIEW_QUERY_LENGTH } from "@/lib/views/limits";
import { copyView, createView, deleteView, restoreView, updateView } from "@/lib/views/views";
import { warmPool } from "../setup/db";
import { addMember, createTeam, unique } from "../teams/fixtures";

const PERSON_REFUSAL = "You have 100 saved views, the most one person can keep. Delete one to save another.";
const TEAM_REFUSAL =
  "Your team shares 500 views, the most a team can share. Delete a team view (or make one personal) to share another; you can still save this one for yourself.";

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isSafeError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

/** `count` views straight into the table (the caps are what is under test, not saving them one by one). */
async function seedViews(actor: Actor, count: number, { scope, ownerId = actor.userId }: { scope: "PERSONAL" | "TEAM"; ownerId?: string | null }) {
  const batch = unique();
  await prisma.savedView.createMany({
    data: Array.from({ length: count }, (_, i) => ({
      teamId: actor.teamId,
      ownerId,
      page: i % 2 ? "events" : "webhook-groups",
      name: `Seeded ${batch} ${i}`,
      query: "",
      scope,
    })),
  });
}

const ownedBy = (actor: Actor) => prisma.savedView.count({ where: { teamId: actor.teamId, ownerId: actor.userId } });
const sharedIn = (actor: Actor) => prisma.savedView.count({ where: { teamId: actor.teamId, scope: "TEAM" } });

restoreEnvAfterEach(["VIEWS_MAX_PER_PERSON", "VIEWS_MAX_PER_TEAM"]);

describe("views per person (VIEWS_MAX_PER_PERSON, default 100: personal and shared together)", () => {
  it("refuses a 101st save, copy or restore with a message that says what to do, and takes one again after a deletion", async () => {
    const owner = await createTeam();
    await seedViews(owner, 60, { scope: "PERSONAL" });
    await seedViews(owner, 39, { scope: "TEAM" });
    const hundredth = await createView(owner, { page: "events", name: "The hundredth", query: "sort=-id", scope: "PERSONAL" });
    expect(await ownedBy(owner)).toBe(100);

    expect(await refusal(createView(owner, { page: "events", name: "One more", query: "", scope: "PERSONAL" }))).toEqual({
      code: "views_person_cap",
      message: PERSON_REFUSAL,
    });
    expect((await refusal(createView(owner, { page: "events", name: "One more", query: "", scope: "TEAM" }))).message).toBe(PERSON_REFUSAL);
    expect((await refusal(copyView(owner, hundredth.id))).message).toBe(PERSON_REFUSAL);
    expect((await refusal(restoreView(owner, { page: "events", name: "Back", query: "", scope: "PERSONAL", makeDefault: true, favourite: true }))).message).toBe(
      PERSON_REFUSAL,
    );
    expect(await ownedBy(owner)).toBe(100);
    // A refused restore leaves no default or favourite behind.
    expect(await prisma.userDefaultView.count({ where: { userId: owner.userId } })).toBe(0);

    await deleteView(owner, hundredth.id);
    await createView(owner, { page: "events", name: "One more", query: "", scope: "PERSONAL" });
    expect(await ownedBy(owner)).toBe(100);
  });

  it("counts each person apart: a teammate at the cap does not stop another", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    await seedViews(owner, 100, { scope: "PERSONAL" });
    await createView(member, { page: "events", name: "Mine", query: "", scope: "PERSONAL" });
    expect(await ownedBy(member)).toBe(1);
  });

  it("still lets a person at the cap rename, change and unshare what they have", async () => {
    const owner = await createTeam();
    await seedViews(owner, 99, { scope: "PERSONAL" });
    const shared = await createView(owner, { page: "events", name: "Shared", query: "", scope: "TEAM" });
    await updateView(owner, shared.id, { name: "Renamed", query: "sort=-id" });
    await updateView(owner, shared.id, { scope: "PERSONAL" });
    await updateView(owner, shared.id, { scope: "TEAM" });
    expect(await ownedBy(owner)).toBe(100);
  });

  it("is configurable", async () => {
    process.env.VIEWS_MAX_PER_PERSON = "2";
    const owner = await createTeam();
    await createView(owner, { page: "events", name: "One", query: "", scope: "PERSONAL" });
    await createView(owner, { page: "events", name: "Two", query: "", scope: "TEAM" });
    expect((await refusal(createView(owner, { page: "events", name: "Three", query: "", scope: "PERSONAL" }))).message).toBe(
      "You have 2 saved views, the most one person can keep. Delete one to save another.",
    );
  });
});

describe("views per team (VIEWS_MAX_PER_TEAM, default 500 shared views)", () => {
  it("refuses a 501st shared view, by a save, a restore or by sharing a personal one; a personal save still works", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const admin = await addMember(owner, "ADMIN");
    // Shared by several people, and by former members (their views stay with the team).
    await seedViews(owner, 90, { scope: "TEAM" });
    await seedViews(admin, 90, { scope: "TEAM" });
    await seedViews(owner, 320, { scope: "TEAM", ownerId: null });
    expect(await sharedIn(owner)).toBe(500);

    expect(await refusal(createView(member, { page: "events", name: "Ours", query: "", scope: "TEAM" }))).toEqual({ code: "views_team_cap", message: TEAM_REFUSAL });
    expect((await refusal(restoreView(member, { page: "events", name: "Ours", query: "", scope: "TEAM", makeDefault: false, favourite: false }))).message).toBe(
      TEAM_REFUSAL,
    );
    const mine = await createView(member, { page: "events", name: "Mine", query: "", scope: "PERSONAL" });
    expect((await refusal(updateView(member, mine.id, { scope: "TEAM" }))).message).toBe(TEAM_REFUSAL);
    expect((await prisma.savedView.findUniqueOrThrow({ where: { id: mine.id } })).scope).toBe("PERSONAL");
    expect(await sharedIn(owner)).toBe(500);

    // Making one personal again frees a place.
    const ownersShared = await prisma.savedView.findFirstOrThrow({ where: { teamId: owner.teamId, ownerId: owner.userId, scope: "TEAM" } });
    await updateView(owner, ownersShared.id, { scope: "PERSONAL" });
    await updateView(member, mine.id, { scope: "TEAM" });
    expect(await sharedIn(owner)).toBe(500);
  });

  it("counts each team apart", async () => {
    const full = await createTeam();
    await seedViews(full, 500, { scope: "TEAM", ownerId: null });
    const other = await createTeam();
    await createView(other, { page: "events", name: "Ours", query: "", scope: "TEAM" });
    expect(await sharedIn(other)).toBe(1);
  });

  it("is configurable", async () => {
    process.env.VIEWS_MAX_PER_TEAM = "1";
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    await createView(owner, { page: "events", name: "Ours", query: "", scope: "TEAM" });
    expect((await refusal(createView(member, { page: "events", name: "Also ours", query: "", scope: "TEAM" }))).code).toBe("views_team_cap");
  });
});

describe("the caps under concurrent saves (a lock on the team's views)", () => {
  it("lets exactly one of several saves at 99 through: never 101", async () => {
    const owner = await createTeam();
    await seedViews(owner, 99, { scope: "PERSONAL" });
    await warmPool(8);
    const attempts = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => createView(owner, { page: "events", name: `Racing ${i}`, query: "", scope: "PERSONAL" })),
    );
    expect(attempts.filter((attempt) => attempt.status === "fulfilled")).toHaveLength(1);
    for (const attempt of attempts) if (attempt.status === "rejected") expect((attempt.reason as Error).message).toBe(PERSON_REFUSAL);
    expect(await ownedBy(owner)).toBe(100);
  });

  it("lets exactly one of several members share the team's 500th view", async () => {
    const owner = await createTeam();
    const members = await Promise.all(Array.from({ length: 6 }, () => addMember(owner, "MEMBER")));
    await seedViews(owner, 499, { scope: "TEAM", ownerId: null });
    await warmPool(8);
    const attempts = await Promise.allSettled(members.map((member, i) => createView(member, { page: "events", name: `Racing ${i}`, query: "", scope: "TEAM" })));
    expect(attempts.filter((attempt) => attempt.status === "fulfilled")).toHaveLength(1);
    expect(await sharedIn(owner)).toBe(500);
  });
});

describe("a view's options (at most MAX_VIEW_QUERY_LENGTH characters, stored canonical)", () => {
  /** `count` "name contains …" filters of `length` characters each, as the toolbar writes them. */
  const longFilters = (count: number, length: number, letter = "a") =>
    Array.from({ length: count }, (_, i) => `filter=${encodeURIComponent(`name=*contains*${String(i).padStart(3, "0")}${letter.repeat(length - 3)}`)}`).join("&");

  it("saves options up to the limit, and refuses longer ones with a message, on a save and on a change", async () => {
    const owner = await createTeam();
    const fits = longFilters(8, 200);
    expect(fits.length).toBeLessThanOrEqual(MAX_VIEW_QUERY_LENGTH);
    const view = await createView(owner, { page: "webhook-groups", name: "Long", query: fits, scope: "PERSONAL" });
    expect(view.query.length).toBeLessThanOrEqual(MAX_VIEW_QUERY_LENGTH);

    const tooLong = longFilters(12, 200);
    expect(tooLong.length).toBeGreaterThan(MAX_VIEW_QUERY_LENGTH);
    const refused = await refusal(createView(owner, { page: "webhook-groups", name: "Longer", query: tooLong, scope: "PERSONAL" }));
    expect(refused).toEqual({
      code: "view_query_too_long",
      message: "These options are too long to save as a view (at most 2,000 characters): remove some filters or ids first.",
    });
    expect((await refusal(updateView(owner, view.id, { query: tooLong }))).code).toBe("view_query_too_long");
    expect((await prisma.savedView.findUniqueOrThrow({ where: { id: view.id } })).query).toBe(view.query);
  });

  it("measures the options as stored: short typed text that grows once canonical is refused too", async () => {
    const owner = await createTeam();
    // 1,500 characters as sent, each "é" six once percent-encoded: over 2,000 as a view would store it.
    const typed = Array.from({ length: 7 }, (_, i) => `filter=name=*contains*${i}${"é".repeat(199)}`).join("&");
    expect(typed.length).toBeLessThanOrEqual(MAX_VIEW_QUERY_LENGTH);
    expect((await refusal(createView(owner, { page: "webhook-groups", name: "Accents", query: typed, scope: "PERSONAL" }))).code).toBe("view_query_too_long");
    expect(await ownedBy(owner)).toBe(0);
  });
});
