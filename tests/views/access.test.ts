import { describe, expect, it } from "vitest";
import { canManageView, canSeeView } from "@/lib/views/access";

const member = { userId: "u-member", teamId: "t1", role: "MEMBER" as const };
const admin = { userId: "u-admin", teamId: "t1", role: "ADMIN" as const };
const outsider = { userId: "u-out", teamId: "t2", role: "OWNER" as const };

describe("saved view access", () => {
  it("keeps a personal view to its owner", () => {
    const view = { teamId: "t1", ownerId: "u-member", scope: "PERSONAL" as const };
    expect(canSeeView(member, view)).toBe(true);
    expect(canManageView(member, view)).toBe(true);
    expect(canSeeView(admin, view)).toBe(false);
    expect(canManageView(admin, view)).toBe(false);
  });

  it("shows a team view to the team; owners, admins and its maker manage it", () => {
    const byAdmin = { teamId: "t1", ownerId: "u-admin", scope: "TEAM" as const };
    const byMember = { teamId: "t1", ownerId: "u-member", scope: "TEAM" as const };
    const orphan = { teamId: "t1", ownerId: null, scope: "TEAM" as const };
    expect(canSeeView(member, byAdmin)).toBe(true);
    expect(canManageView(member, byAdmin)).toBe(false);
    expect(canManageView(member, byMember)).toBe(true);
    expect(canManageView(admin, byMember)).toBe(true);
    expect(canManageView(admin, orphan)).toBe(true);
    expect(canManageView(member, orphan)).toBe(false);
  });

  it("never crosses teams, whatever the role", () => {
    const view = { teamId: "t1", ownerId: "u-admin", scope: "TEAM" as const };
    expect(canSeeView(outsider, view)).toBe(false);
    expect(canManageView(outsider, view)).toBe(false);
  });
});
