// dismissChecklistAction, called as a crafted direct request would call it: signed out, with
// another person's ids in the fields, by a member held at two-factor enrolment, and as intended.
import { describe, expect, it, vi } from "vitest";
vi.mock("next/headers", () => import("./support/next-headers"));
vi.mock("next/cache", () => import("./support/next-cache"));

import { revalidatePath } from "next/cache";
import { dismissChecklistAction } from "@/lib/actions/onboarding/dismiss-checklist";
import { TWO_FACTOR_SETUP_PATH, type Actor } from "@/lib/access/actor";
import { prisma } from "@/lib/db/prisma";
import { addMember, createTeam, membershipIdOf } from "@/tests/teams/fixtures";
import { call, expectSignInRedirect, redirectOf } from "./support/call";
import { signedOutBeforeEach, signInAs } from "./support/request";

const dismissedAt = async (who: Pick<Actor, "userId">) => (await prisma.membership.findUniqueOrThrow({ where: { userId: who.userId } })).checklistDismissedAt;

signedOutBeforeEach("/webhook-groups");

describe("dismissChecklistAction", () => {
  it("sends a signed-out caller to sign-in and puts nobody's checklist away", async () => {
    const owner = await createTeam();
    await expectSignInRedirect(call(dismissChecklistAction), "/webhook-groups");
    expect(await dismissedAt(owner)).toBeNull();
  });

  it("puts away the caller's own checklist only, whatever ids the fields name (a teammate's, another team's membership)", async () => {
    const owner = await createTeam();
    const teammate = await addMember(owner, "MEMBER");
    const stranger = await createTeam();
    await signInAs(teammate, { path: "/webhook-groups" });
    const answer = await call(dismissChecklistAction, { userId: owner.userId, membershipId: await membershipIdOf(stranger), teamId: stranger.teamId });
    expect(answer).toEqual({ status: "success", message: "Checklist dismissed." });
    expect(await dismissedAt(teammate)).toBeInstanceOf(Date);
    expect(await dismissedAt(owner)).toBeNull();
    expect(await dismissedAt(stranger)).toBeNull();
    expect(revalidatePath).toHaveBeenCalledWith("/webhook-groups");
  });

  it("keeps the first dismissal's time when sent again", async () => {
    const owner = await createTeam();
    await signInAs(owner, { path: "/webhook-groups" });
    await call(dismissChecklistAction);
    const first = await dismissedAt(owner);
    expect(await call(dismissChecklistAction)).toMatchObject({ status: "success" });
    expect(await dismissedAt(owner)).toEqual(first);
  });

  it("sends a member whose team requires two-factor to enrol first, and changes nothing", async () => {
    const owner = await createTeam();
    await prisma.team.update({ where: { id: owner.teamId }, data: { requireTwoFactor: true } });
    const member = await addMember(owner, "MEMBER");
    await signInAs(member, { path: "/webhook-groups" });
    expect(await redirectOf(call(dismissChecklistAction))).toBe(TWO_FACTOR_SETUP_PATH);
    expect(await dismissedAt(member)).toBeNull();
  });
});
