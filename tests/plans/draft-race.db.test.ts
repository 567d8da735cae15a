import { beforeEach, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/access/actor";
import { saveCredential } from "@/lib/credentials/store";
import { prisma } from "@/lib/db/prisma";
import { accountKey } from "@/lib/ems-access/account-key";
import type { Webhook } from "@/lib/ems";
import { storeDraft } from "@/lib/plans/draft";
import type { DraftOperation } from "@/lib/plans/operations";
import { approvePlan, submitPlan } from "@/lib/plans/review";
import { addMember, createTeam } from "../teams/fixtures";

/**
 * "Edit the change" drafts the plan again with `replacesPlanId` and cancels the old draft in the
 * same transaction (lib/plans/draft.ts storeDraft). Raced on the real PostgreSQL (and the embedded
 * one) with several connections: two replacements of one draft, and a replacement against the
 * draft's submission and approval. At most one replacement wins, and a plan sent for review (or
 * approved) is never cancelled by a replacement that lost the race.
 *
 * Checked: with the `status: "draft"` condition of the replacing UPDATE removed, both tests fail
 * (two replacements both win; a submitted or approved plan ends up cancelled).
 */

const ROUNDS = 18;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** An account the approver holds credentials for (approving needs them: lib/plans/review.ts); never called. */
const EMS = { baseUrl: "https://ems.race.example.com", consumerKey: "race-key", consumerSecret: "race-secret" };
let ACCOUNT: string;

let member: Actor;
let admin: Actor;

const hook = { id: 4242, name: "Race hook", url: "https://race.example.com/in", updated_at: "2026-11-27 01:00:00" } as Webhook;
const rename = (name: string): DraftOperation[] => [{ operation: "webhooks.update", recordId: hook.id, before: hook, changes: { name } }];
const draft = (name: string, replacesPlanId?: string) => storeDraft(member, { title: name, replacesPlanId }, rename(name), ACCOUNT);
const statusOf = async (planId: string) => (await prisma.changePlan.findUniqueOrThrow({ where: { id: planId } })).status;
const draftsTitled = (title: string) => prisma.changePlan.count({ where: { teamId: member.teamId, title } });

beforeEach(async () => {
  const owner = await createTeam();
  admin = await addMember(owner, "ADMIN");
  member = await addMember(owner, "MEMBER");
  await saveCredential(admin, EMS, {}, { check: false });
  ACCOUNT = accountKey(EMS.baseUrl, EMS.consumerKey);
});

describe("replacing a draft while something else acts on it", () => {
  it("two replacements of one draft at once: exactly one wins, the other is refused and stores nothing", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { planId } = await draft(`Original ${round}`);
      const outcomes = await Promise.allSettled([draft(`Replacement A ${round}`, planId), draft(`Replacement B ${round}`, planId)]);
      const won = outcomes.filter((outcome) => outcome.status === "fulfilled");
      const lost = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
      expect(won, `round ${round}`).toHaveLength(1);
      expect(lost[0].reason).toMatchObject({ code: "plan_not_draft" });
      expect(await statusOf(planId)).toBe("cancelled");
      // The loser's plan was never stored (its transaction rolled back with the refusal).
      expect((await draftsTitled(`Replacement A ${round}`)) + (await draftsTitled(`Replacement B ${round}`))).toBe(1);
    }
  });

  it("a replacement racing the draft's submission and approval: either the draft is replaced, or it is reviewed and stays so", async () => {
    let replacedFirst = 0;
    let reviewedFirst = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const { planId } = await draft(`Reviewed ${round}`);
      // The replacement starts up to 30 ms late, so that both orders happen (a submission and
      // approval take about that long), and the statements of the two meet in between.
      const [replacement, review] = await Promise.allSettled([
        sleep((round % 6) * 6).then(() => draft(`Late edit ${round}`, planId)),
        submitPlan(member, planId).then(() => approvePlan(admin, planId)),
      ]);
      const status = await statusOf(planId);
      if (replacement.status === "fulfilled") {
        replacedFirst++;
        expect(status, `round ${round}`).toBe("cancelled");
        expect(review.status).toBe("rejected");
        expect((review as PromiseRejectedResult).reason).toMatchObject({ code: "plan_state" });
        expect(await statusOf(replacement.value.planId)).toBe("draft");
      } else {
        reviewedFirst++;
        expect(replacement.reason).toMatchObject({ code: "plan_not_draft" });
        expect(await draftsTitled(`Late edit ${round}`)).toBe(0);
        // Submitted (the approval may have lost to nothing: it only follows the submission) and never cancelled.
        expect(review.status, `round ${round}`).toBe("fulfilled");
        expect(status).toBe("approved");
      }
    }
    expect(replacedFirst + reviewedFirst).toBe(ROUNDS);
    // Both orders happened: the race was run, not just one side of it.
    expect(replacedFirst, "rounds the replacement won").toBeGreaterThan(0);
    expect(reviewedFirst, "rounds the review won").toBeGreaterThan(0);
  });

  it("a replacement after the draft was submitted, or approved, is refused and the plan keeps its state", async () => {
    const submitted = await draft("Submitted");
    await submitPlan(member, submitted.planId);
    await expect(draft("Too late", submitted.planId)).rejects.toMatchObject({ code: "plan_not_draft" });
    expect(await statusOf(submitted.planId)).toBe("submitted");
    await approvePlan(admin, submitted.planId);
    await expect(draft("Far too late", submitted.planId)).rejects.toMatchObject({ code: "plan_not_draft" });
    expect(await statusOf(submitted.planId)).toBe("approved");
    expect(await draftsTitled("Too late")).toBe(0);
    expect(await draftsTitled("Far too late")).toBe(0);
  });
});
