// Mutes against the real database: concurrent mutes of one finding, and what a crafted id reaches.
import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { muteFinding } from "@/lib/health/mutes";
import { addMember, createTeam } from "@/tests/teams/fixtures";
import { warmPool } from "../setup/db";

describe("muteFinding", () => {
  it("four owners and admins muting one finding at the same moment: one mute, the others told it is already muted", async () => {
    await warmPool();
    const owner = await createTeam();
    const admins = await Promise.all([addMember(owner, "ADMIN"), addMember(owner, "ADMIN"), addMember(owner, "OWNER")]);
    // Several races at once, so that the transactions really overlap on a loaded machine.
    for (let round = 0; round < 3; round++) {
      const key = `70${round}`;
      const outcomes = await Promise.allSettled([owner, ...admins].map((actor) => muteFinding(actor, { ruleId: "plain-http-url", findingKey: key, reason: "r" })));
      const refused = outcomes.filter((outcome) => outcome.status === "rejected").map((outcome) => (outcome as PromiseRejectedResult).reason);
      expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
      expect(refused.map((error) => (error as Error).message)).toEqual([
        "That finding is already muted.",
        "That finding is already muted.",
        "That finding is already muted.",
      ]);
    }
    expect(await prisma.healthMute.count({ where: { teamId: owner.teamId } })).toBe(3);
    expect(await prisma.auditLog.count({ where: { teamId: owner.teamId, action: "health.muted" } })).toBe(3);
  });
});
