import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Actor } from "@/lib/access/actor";
import { prisma } from "@/lib/db/prisma";
import { parseCsv } from "@/lib/csv";
import { changeMemberRole } from "@/lib/teams/members";
import { actorFor, addMember, createTeam, membershipIdOf } from "@/tests/teams/fixtures";

// Only who is signed in is replaced; the route reads the real database under the real role check.
const getActor = vi.hoisted(() => vi.fn<() => Promise<Actor | null>>());
vi.mock("@/lib/auth/session", async (importOriginal) => ({ ...(await importOriginal<object>()), getActor }));
const { GET } = await import("@/app/api/audit/export/route");

const download = (query = "") => GET(new Request(`http://localhost:3000/api/audit/export${query}`));
const errorOf = async (response: Response) => ((await response.json()) as { error: string }).error;

beforeEach(() => getActor.mockReset());

describe("GET /api/audit/export", () => {
  it("is the filtered log as CSV, for owners and admins of the team only, with formulas defused", async () => {
    const owner = await createTeam();
    await prisma.user.update({ where: { id: owner.userId }, data: { name: "Ada Lovelace" } });
    const ada = await actorFor(owner.userId);
    const bob = await addMember(ada, "MEMBER", '=HYPERLINK("http://evil.example")');
    const other = await createTeam();
    const stranger = await addMember(other, "MEMBER", "Stranger");
    await changeMemberRole(other, { membershipId: await membershipIdOf(stranger), role: "ADMIN" });
    await changeMemberRole(ada, { membershipId: await membershipIdOf(bob), role: "ADMIN" });
    await prisma.auditLog.create({
      data: { teamId: ada.teamId, action: "auth.sign_in", actorId: ada.userId, actorEmail: ada.email, createdAt: new Date("2026-01-02T03:04:05.678Z") },
    });

    getActor.mockResolvedValue(null);
    expect((await download()).status).toBe(401);

    getActor.mockResolvedValue(ada);
    const response = await download(`?person=${bob.userId}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    const rows = parseCsv(await response.text());
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual(["time_utc", "actor_name", "actor_email", "action", "sentence"]);
    expect(rows[1].slice(1, 4)).toEqual(["Ada Lovelace", ada.email, "Changed a role"]);
    expect(rows[1][0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(rows[1][4]).toBe('Ada Lovelace changed =HYPERLINK("http://evil.example") from Member to Admin');

    const january = parseCsv(await (await download("?from=2026-01-02&to=2026-01-02&action=sign-in")).text());
    expect(january.slice(1)).toEqual([["2026-01-02T03:04:05.678Z", "Ada Lovelace", ada.email, "Signed in", "Ada Lovelace signed in"]]);

    // A name that starts a formula is defused in its own cell (here, Bob's own sign-in, as admin now).
    await prisma.auditLog.create({
      data: { teamId: ada.teamId, action: "auth.sign_in", actorId: bob.userId, actorEmail: bob.email, createdAt: new Date(Date.now() + 60_000) },
    });
    getActor.mockResolvedValue(await actorFor(bob.userId));
    const bobsFile = parseCsv(await (await download(`?person=${bob.userId}&action=auth.sign_in`)).text());
    expect(bobsFile.slice(1).map((row) => row[1])).toEqual(['\'=HYPERLINK("http://evil.example")']);

    // Another team's person, a bad date or a repeated parameter: refused with the reason, never another team's rows.
    getActor.mockResolvedValue(ada);
    for (const [query, reason] of [
      [`?person=${stranger.userId}`, /not in this team's log/],
      ["?from=2026-13-01", /start date is not a date/],
      ["?action=a&action=b", /more than once/],
    ] as const) {
      const refused = await download(query);
      expect(refused.status, query).toBe(400);
      expect(await errorOf(refused)).toMatch(reason);
    }
    const all = await (await download()).text();
    expect(all).not.toContain("Stranger");
    expect(all).not.toContain(stranger.email);

    // A member, and an admin demoted since their session began.
    getActor.mockResolvedValue(await addMember(ada, "MEMBER"));
    expect((await download()).status).toBe(403);
    const demoted = await actorFor(bob.userId);
    await changeMemberRole(ada, { membershipId: await membershipIdOf(bob), role: "MEMBER" });
    getActor.mockResolvedValue(demoted);
    expect(demoted.role).toBe("ADMIN");
    expect((await download()).status).toBe(403);
  });
});
