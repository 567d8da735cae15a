import { describe, expect, it } from "vitest";
import { restoreEnvAfterEach } from "@/tests/support/env-per-test";
import type { Actor } from "@/lib/access/actor";
import { prisma } from "@/lib/db/prisma";
import type { Webhook } from "@/lib/ems";
import { storeDraft } from "@/lib/plans/draft";
import type { DraftOperation } from "@/lib/plans/operations";
import { submitPlan } from "@/lib/plans/review";
import { addMember, createTeam } from "../teams/fixtures";
import { warmPool } from "../setup/db";

/**
 * How many plans may wait (lib/plans/caps.ts, issue 35): a person's drafts and plans waiting for
 * review are capped, and so are a team's; a replacement of one's own draft adds none. Raced on the
 * real PostgreSQL: drafts at the cap at once never take a person past it.
 *
 * Checked: without lockTeamPlans, the race test ends with more plans than the cap.
 */

const ACCOUNT = "acct:caps";
const hook = { id: 5151, name: "Capped hook", url: "https://caps.example.com/in", updated_at: "2026-11-28 01:00:00" } as Webhook;
const rename = (name: string): DraftOperation[] => [{ operation: "webhooks.update", recordId: hook.id, before: hook, changes: { name } }];
const draft = (actor: Actor, name: string, replacesPlanId?: string) => storeDraft(actor, { title: name, replacesPlanId }, rename(name), ACCOUNT);
const openOf = (actor: Actor) => prisma.changePlan.count({ where: { authorId: actor.userId, status: { in: ["draft", "submitted"] } } });
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "stored",
    (error: { code?: string }) => error.code,
  );

restoreEnvAfterEach(["PLANS_MAX_OPEN_PER_PERSON", "PLANS_MAX_OPEN_PER_TEAM"]);

describe("plans that wait, per person and per team", () => {
  it("refuses a person's plan past the cap with what to do, counts plans waiting for review too, and lets a draft be replaced at the cap", async () => {
    process.env.PLANS_MAX_OPEN_PER_PERSON = "3";
    const owner = await createTeam();
    const first = await draft(owner, "One");
    await draft(owner, "Two");
    const third = await draft(owner, "Three");
    await submitPlan(owner, third.planId);
    await expect(draft(owner, "Four")).rejects.toMatchObject({
      code: "plans_person_cap",
      message: expect.stringMatching(/^You have 3 plans drafted or waiting for review.*Cancel one/),
    });
    // Editing a draft replaces it: no plan more.
    await draft(owner, "One, edited", first.planId);
    expect(await openOf(owner)).toBe(3);
    // Another person of the team has room of their own.
    const member = await addMember(owner, "MEMBER");
    await draft(member, "Theirs");
  });

  it("refuses a team's plan past the team's cap", async () => {
    process.env.PLANS_MAX_OPEN_PER_TEAM = "2";
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    await draft(owner, "A");
    await draft(member, "B");
    await expect(draft(member, "C")).rejects.toMatchObject({ code: "plans_team_cap" });
  });

  it("drafts at the cap at once: exactly the room left is taken, never more", async () => {
    process.env.PLANS_MAX_OPEN_PER_PERSON = "3";
    await warmPool(6);
    for (let round = 0; round < 6; round++) {
      const owner = await createTeam();
      await draft(owner, "First");
      await draft(owner, "Second");
      const outcomes = await Promise.all(Array.from({ length: 5 }, (_, index) => codeOf(draft(owner, `Racing ${round}.${index}`))));
      expect(
        outcomes.filter((outcome) => outcome === "stored"),
        `round ${round}`,
      ).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome === "plans_person_cap")).toHaveLength(4);
      expect(await openOf(owner)).toBe(3);
    }
  });
});
