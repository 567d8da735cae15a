// Who may read a tracked account's change history (issue 24, finding 10; lib/history/access.ts):
// owners and admins of the team, and members whose own saved credential reads that account (same
// base URL and consumer key). Checked inside each data function: the feed, a group's timeline,
// "as of" and the listing's "changed" marks. (Alert recipients: tests/alerts/deliveries.db.test.ts.)
import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { groupAsOf } from "@/lib/history/as-of";
import { changedSince, groupTimeline, listChanges } from "@/lib/history/feed";
import { parseFeedParams } from "@/lib/history/feed-params";
import { addMember, createTeam } from "@/tests/teams/fixtures";
import { giveCredential, newAccount, trackedAccount } from "./access-fixtures";

const RULE = /^Change history of .+ is visible to members who have saved credentials for that account, and to owners and admins\. Add your credentials in Settings\.$/;
const hourAgo = () => new Date(Date.now() - 3_600_000);

/** A team tracking one account, and one person of each kind the rule tells apart. */
async function teamOfEveryKind() {
  const owner = await createTeam();
  const account = newAccount();
  const tracked = await trackedAccount(owner, account);
  const [admin, withoutCredential, otherAccount, sameAccount, sameAccountRotated] = await Promise.all([
    addMember(owner, "ADMIN", "Admin"),
    addMember(owner, "MEMBER", "None"),
    addMember(owner, "MEMBER", "Other"),
    addMember(owner, "MEMBER", "Same"),
    addMember(owner, "MEMBER", "Rotated"),
  ]);
  await giveCredential(owner, account);
  await giveCredential(otherAccount, newAccount());
  await giveCredential(sameAccount, account);
  // Another secret of the same key: the same account (a rotated secret does not change it).
  await giveCredential(sameAccountRotated, account, "a rotated secret");
  return { owner, admin, withoutCredential, otherAccount, sameAccount, sameAccountRotated, ...tracked };
}

describe("the Changes feed (listChanges)", () => {
  it("lists the account's changes to owners, admins (even without credentials) and members with credentials for that account", async () => {
    const team = await teamOfEveryKind();
    for (const reader of [team.owner, team.admin, team.sameAccount, team.sameAccountRotated]) {
      const feed = await listChanges(reader, parseFeedParams({}));
      expect(feed.entries.map((entry) => entry.recordId)).toEqual([team.groupId]);
      expect(feed.refused).toEqual([]);
      expect(feed.refusedReason).toBeNull();
    }
  });

  it("lists nothing to a member without credentials, and says which account and why", async () => {
    const team = await teamOfEveryKind();
    const feed = await listChanges(team.withoutCredential, parseFeedParams({}));
    expect(feed).toMatchObject({ entries: [], total: 0, tracking: true, refusedReason: "no-credential" });
    expect(feed.refused).toMatchObject([{ id: team.trackerId, accountLabel: team.accountLabel }]);
    // A crafted filter does not get round it.
    expect((await listChanges(team.withoutCredential, parseFeedParams({ group: String(team.groupId) }))).entries).toEqual([]);
  });

  it("lists nothing to a member whose credentials are for another EMS account", async () => {
    const team = await teamOfEveryKind();
    const feed = await listChanges(team.otherAccount, parseFeedParams({}));
    expect(feed).toMatchObject({ entries: [], total: 0, tracking: true, refusedReason: "other-account" });
    expect(feed.refused.map((tracker) => tracker.id)).toEqual([team.trackerId]);
  });

  it("with two tracked accounts, a member sees their own account's changes only; an admin sees both", async () => {
    const team = await teamOfEveryKind();
    const second = newAccount();
    const other = await trackedAccount(team.owner, second, 8);
    const feed = await listChanges(team.sameAccount, parseFeedParams({}));
    expect(feed.entries.map((entry) => entry.recordId)).toEqual([team.groupId]);
    expect(feed.refused).toMatchObject([{ id: other.trackerId, accountLabel: other.accountLabel }]);
    const admin = await listChanges(team.admin, parseFeedParams({}));
    expect(admin.entries.map((entry) => entry.recordId).sort()).toEqual([team.groupId, 8]);
  });

  it("a member turned admin reads it at once; an admin turned member without credentials no longer does (the role is read now)", async () => {
    const team = await teamOfEveryKind();
    await prisma.membership.update({ where: { userId: team.withoutCredential.userId }, data: { role: "ADMIN" } });
    expect((await listChanges(team.withoutCredential, parseFeedParams({}))).entries).toHaveLength(1);
    await prisma.membership.update({ where: { userId: team.admin.userId }, data: { role: "MEMBER" } });
    expect((await listChanges(team.admin, parseFeedParams({}))).entries).toEqual([]);
  });
});

describe("a group's timeline (groupTimeline)", () => {
  it("is refused with the rule in words to a member without credentials or with another account's; read by the others", async () => {
    const team = await teamOfEveryKind();
    for (const outsider of [team.withoutCredential, team.otherAccount]) {
      await expect(groupTimeline(outsider, team.trackerId, team.groupId)).rejects.toThrow(RULE);
    }
    for (const reader of [team.owner, team.admin, team.sameAccount]) {
      expect((await groupTimeline(reader, team.trackerId, team.groupId)).map((entry) => entry.recordId)).toEqual([team.groupId]);
    }
  });

  it("another team's tracker is not found, even for an owner", async () => {
    const team = await teamOfEveryKind();
    const stranger = await createTeam();
    await expect(groupTimeline(stranger, team.trackerId, team.groupId)).rejects.toThrow(/not your team's/);
  });
});

describe('"as of" a past time (groupAsOf)', () => {
  it("is refused to a member without credentials or with another account's, and read by the others", async () => {
    const team = await teamOfEveryKind();
    for (const outsider of [team.withoutCredential, team.otherAccount]) {
      await expect(groupAsOf(outsider, team.trackerId, team.groupId, new Date())).rejects.toThrow(RULE);
    }
    for (const reader of [team.owner, team.admin, team.sameAccount]) {
      // No checkpoint in this fixture: "before history", which is an answer from the history.
      expect(await groupAsOf(reader, team.trackerId, team.groupId, new Date())).toMatchObject({ kind: "before-history" });
    }
  });
});

describe('the listing\'s "changed" marks (changedSince)', () => {
  it("marks nothing for a member who may not read the account; marks the changed group for one who may", async () => {
    const team = await teamOfEveryKind();
    for (const outsider of [team.withoutCredential, team.otherAccount]) {
      expect(await changedSince(outsider, team.trackerId, "group", [team.groupId, 99], hourAgo())).toEqual(new Set());
    }
    for (const reader of [team.sameAccount, team.admin]) {
      expect(await changedSince(reader, team.trackerId, "group", [team.groupId, 99], hourAgo())).toEqual(new Set([team.groupId]));
    }
  });
});
