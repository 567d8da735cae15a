import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { isSafeError } from "@/lib/errors";
import { saveCredential } from "@/lib/credentials/store";
import { parseAuditFilters } from "@/lib/audit-log/filters";
import { AUDIT_PAGE_SIZE, exportAuditLog, listAuditLog } from "@/lib/audit-log/entries";
import { createInvitation, revokeInvitation } from "@/lib/teams/invitations";
import { changeMemberRole, leaveTeam, removeMember } from "@/lib/teams/members";
import { createView } from "@/lib/views/views";
import { actorFor, addMember, createTeam, membershipIdOf } from "@/tests/teams/fixtures";

const isForbidden = (error: unknown) => isSafeError(error) && (error as { code: string }).code === "forbidden";

/** A team whose owner is "Ada Lovelace", as the session would have her. */
async function adasTeam() {
  const owner = await createTeam();
  await prisma.user.update({ where: { id: owner.userId }, data: { name: "Ada Lovelace" } });
  return actorFor(owner.userId);
}

const list = (actor: Awaited<ReturnType<typeof adasTeam>>, query: string) => listAuditLog(actor, parseAuditFilters(new URLSearchParams(query)));
const sentences = (page: { records: { text: string }[] }) => page.records.map((r) => r.text);

describe("audit log page data", () => {
  it("is for owners and admins only, by the role the database has now", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const admin = await addMember(owner, "ADMIN");
    await expect(listAuditLog(member)).rejects.toSatisfy(isForbidden);
    await expect(exportAuditLog(member, parseAuditFilters({}))).rejects.toSatisfy(isForbidden);
    await expect(listAuditLog(admin)).resolves.toBeTruthy();
    // Demoted a moment ago: the session still says admin, the database does not.
    await changeMemberRole(owner, { membershipId: await membershipIdOf(admin), role: "MEMBER" });
    expect(admin.role).toBe("ADMIN");
    await expect(listAuditLog(admin)).rejects.toSatisfy(isForbidden);
    await expect(exportAuditLog(admin, parseAuditFilters({}))).rejects.toSatisfy(isForbidden);
  });

  it("writes each entry about a person as a sentence with names, never an id or a key, and still names people who left", async () => {
    const ada = await adasTeam();
    const bob = await addMember(ada, "MEMBER", "Bob Builder");
    const carol = await addMember(ada, "ADMIN", "Carol Ünïcödé-Øster");
    const dave = await addMember(ada, "MEMBER", "Dave Gone");
    await changeMemberRole(ada, { membershipId: await membershipIdOf(bob), role: "ADMIN" });
    await removeMember(ada, { membershipId: await membershipIdOf(carol) });
    await leaveTeam(await actorFor(dave.userId));
    const { invitation } = await createInvitation(ada, { role: "MEMBER", email: "new.person@example.test" });
    await revokeInvitation(ada, invitation.id);
    await createView(ada, { page: "events", name: "Live events", query: "", scope: "TEAM" });
    // A removed person whose account is gone since: named by the address the record kept.
    const erin = await addMember(ada, "MEMBER", "Erin Erased");
    await removeMember(ada, { membershipId: await membershipIdOf(erin) });
    await prisma.user.delete({ where: { id: erin.userId } });
    // An actor whose account is gone and who left no address.
    await prisma.auditLog.create({
      data: { teamId: ada.teamId, action: "team.member_removed", actorId: "gone-user-id", target: `user:${dave.userId}`, metadata: { role: "MEMBER" } },
    });
    await prisma.auditLog.create({ data: { teamId: ada.teamId, action: "auth.sign_in_failed", actorEmail: "ada@example.com", metadata: { step: "two-factor" } } });

    const page = await listAuditLog(ada);
    const text = sentences(page);
    expect(text).toEqual(
      expect.arrayContaining([
        "Ada Lovelace changed Bob Builder from Member to Admin",
        "Ada Lovelace removed Carol Ünïcödé-Øster from the team",
        "Dave Gone left the team",
        "Ada Lovelace invited new.person@example.test as Member",
        "Ada Lovelace withdrew the invitation for new.person@example.test (Member)",
        "Ada Lovelace shared the view “Live events” of events with the team",
        `Ada Lovelace removed ${erin.email} from the team`,
        "A former member removed Dave Gone from the team",
        "Sign-in failed for ada@example.com at the two-factor step",
      ]),
    );
    const everything = JSON.stringify(page.records.map((r) => ({ text: r.text, label: r.actionLabel })));
    for (const id of [ada.userId, bob.userId, carol.userId, dave.userId, invitation.id]) expect(everything).not.toContain(id);
    expect(everything).not.toMatch(/[a-z]+_[a-z]+|[a-z][A-Z]/); // no snake_case or camelCase keys
    const removal = page.records.find((r) => r.text.includes("removed Carol"))!;
    expect(removal).toMatchObject({ actorName: "Ada Lovelace", actorEmail: ada.email, actionLabel: "Removed a member" });

    // People who left stay in the person filter, apart from today's members.
    expect(
      page.people
        .filter((p) => p.current)
        .map((p) => p.name)
        .sort(),
    ).toEqual(["Ada Lovelace", "Bob Builder"]);
    expect(
      page.people
        .filter((p) => !p.current)
        .map((p) => p.name)
        .sort(),
    ).toEqual(["Carol Ünïcödé-Øster", "Dave Gone"]);
  });

  it("filters by person (who did it or whom it was about), by action or group, and by UTC days with both ends included", async () => {
    const ada = await adasTeam();
    const bob = await addMember(ada, "MEMBER", "Bob Builder");
    const at = (iso: string) => new Date(iso);
    await prisma.auditLog.createMany({
      data: [
        { teamId: ada.teamId, action: "auth.sign_in", actorId: ada.userId, createdAt: at("2026-02-28T23:59:59.999Z") },
        { teamId: ada.teamId, action: "auth.sign_in", actorId: bob.userId, createdAt: at("2026-03-01T00:00:00.000Z") },
        {
          teamId: ada.teamId,
          action: "team.role_changed",
          actorId: ada.userId,
          target: `user:${bob.userId}`,
          metadata: { from: "MEMBER", to: "ADMIN" },
          createdAt: at("2026-03-15T12:00:00.000Z"),
        },
        { teamId: ada.teamId, action: "credential.saved", actorId: ada.userId, createdAt: at("2026-03-31T23:59:59.999Z") },
        { teamId: ada.teamId, action: "auth.sign_in", actorId: ada.userId, createdAt: at("2026-04-01T00:00:00.000Z") },
      ],
    });

    const march = await list(ada, "from=2026-03-01&to=2026-03-31");
    expect(march.records.map((r) => r.createdAt.toISOString())).toEqual(["2026-03-31T23:59:59.999Z", "2026-03-15T12:00:00.000Z", "2026-03-01T00:00:00.000Z"]);
    expect((await list(ada, "from=2026-03-31&to=2026-03-31")).totalCount).toBe(1);
    expect((await list(ada, "from=2026-04-01")).totalCount).toBe(1);
    expect((await list(ada, "to=2026-02-28")).totalCount).toBe(1);

    const bobs = await list(ada, `person=${bob.userId}`);
    expect(sentences(bobs)).toEqual(["Ada Lovelace changed Bob Builder from Member to Admin", "Bob Builder signed in"]);
    expect((await list(ada, "action=auth.sign_in")).totalCount).toBe(3);
    expect((await list(ada, "action=team")).records.map((r) => r.action)).toEqual(["team.role_changed"]);
    expect((await list(ada, `action=auth.sign_in&person=${bob.userId}&from=2026-03-01&to=2026-03-01`)).totalCount).toBe(1);

    // Swapped dates are put right; bad values are ignored with a reason, never a failure.
    const swapped = await list(ada, "from=2026-03-31&to=2026-03-01");
    expect(swapped.totalCount).toBe(3);
    expect(swapped.notices).toEqual(["The start date was after the end date, so the two were swapped."]);
    const bad = await list(ada, "from=2026-02-30&to=yesterday&action=teamRoleChanged&page=-1&person=a%27%20OR%201%3D1");
    expect(bad.totalCount).toBe(5);
    expect(bad.notices).toHaveLength(5);
    expect(bad.filters).toMatchObject({ person: null, action: null, from: null, to: null, page: 1 });
    const twice = await list(ada, "action=auth.sign_in&action=team");
    expect(twice.totalCount).toBe(5);
    expect(twice.notices).toEqual(["The action was given more than once, so it was ignored."]);
  });

  it("pages 50 at a time, newest first and tie-broken by id, and answers a page past the end with the last one", async () => {
    const ada = await adasTeam();
    const same = new Date("2026-05-05T05:05:05.000Z");
    await prisma.auditLog.createMany({
      data: Array.from({ length: AUDIT_PAGE_SIZE * 2 + 7 }, () => ({
        teamId: ada.teamId,
        action: "credential.tested",
        actorId: ada.userId,
        createdAt: same,
        metadata: { ok: true, webhookGroupCount: 3 },
      })),
    });
    const query = "from=2026-05-05&to=2026-05-05";
    const pages = [await list(ada, query), await list(ada, `${query}&page=2`), await list(ada, `${query}&page=3`)];
    expect(pages.map((p) => p.records.length)).toEqual([AUDIT_PAGE_SIZE, AUDIT_PAGE_SIZE, 7]);
    expect(pages[0]).toMatchObject({ page: 1, pageCount: 3, totalCount: AUDIT_PAGE_SIZE * 2 + 7 });
    const ids = pages.flatMap((p) => p.records.map((r) => r.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort().reverse());
    // Asked twice, the same order.
    expect((await list(ada, `${query}&page=2`)).records.map((r) => r.id)).toEqual(pages[1].records.map((r) => r.id));
    expect(pages[2].records[0].text).toBe("Ada Lovelace tested their API credentials: connected, 3 webhook groups");

    const beyond = await list(ada, `${query}&page=99999`);
    expect(beyond.page).toBe(3);
    expect(beyond.notices).toEqual(["There is no page 99,999: this is the last page, 3."]);
    const huge = await list(ada, `${query}&page=1e308`);
    expect(huge.page).toBe(1);
    expect(huge.notices).toHaveLength(1);
  });

  it("never shows another team's entries, whatever the address asks for, nor a secret", async () => {
    const ada = await adasTeam();
    const other = await createTeam();
    const stranger = await addMember(other, "MEMBER", "Stranger Danger");
    await changeMemberRole(other, { membershipId: await membershipIdOf(stranger), role: "ADMIN" });
    await createInvitation(other, { role: "MEMBER" });
    const { token } = await createInvitation(ada, { role: "ADMIN" });
    await saveCredential(ada, { baseUrl: "https://ems.example.com", consumerKey: "audit-key-9876", consumerSecret: "audit secret value" });
    // A writer that slipped: nothing but the sentence's own fields ever reaches the page.
    await prisma.auditLog.create({
      data: { teamId: ada.teamId, action: "credential.saved", actorId: ada.userId, metadata: { secret: "leaked?", consumerSecret: "leaked?" } },
    });

    for (const query of [`person=${stranger.userId}`, `person=${other.userId}`]) {
      const page = await list(ada, query);
      expect(page.filters.person).toBeNull();
      expect(page.notices).toEqual(["That person is not in this team's log, so the person filter was ignored."]);
      expect(page.records.length).toBeGreaterThan(0);
      const file = await exportAuditLog(ada, parseAuditFilters(new URLSearchParams(query)));
      expect(file).toMatchObject({ ok: true, notices: page.notices });
    }
    const all = await list(ada, "");
    const file = await exportAuditLog(ada, parseAuditFilters({}));
    expect(file.ok && file.records.map((r) => r.id)).toEqual(all.records.map((r) => r.id));
    const everything = JSON.stringify([all, file]);
    expect(everything).not.toContain("Stranger Danger");
    expect(everything).not.toContain(stranger.email);
    expect(everything).not.toContain(other.email);
    expect(everything).not.toContain(token);
    expect(everything).not.toMatch(/audit-key-9876|audit secret value|leaked\?/);
    expect(everything).toContain("9876");
    expect(all.people.map((p) => p.id)).toEqual([ada.userId]);
    const otherTeamIds = (await prisma.auditLog.findMany({ where: { teamId: other.teamId }, select: { id: true } })).map((r) => r.id);
    expect(otherTeamIds.length).toBeGreaterThan(0);
    for (const id of otherTeamIds) expect(everything).not.toContain(id);
  });
});
