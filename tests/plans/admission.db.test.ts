import { beforeEach, describe, expect, it } from "vitest";
import { BusyError, HEAVY_WORK } from "@/lib/admission";
import { prisma } from "@/lib/db/prisma";
import { draftPlan } from "@/lib/plans/draft";
import { loadSelection } from "@/lib/plans/selection";
import type { Actor } from "@/lib/access/actor";
import { ensureEmsTestEnv } from "@/tests/ems/support/env";
import { listAll, tokenFor } from "../sandbox/helpers";
import { planTeamPerTest } from "./support/plan-team";

/**
 * Heavy work is admitted, not piled up (issue 34 §2, lib/admission.ts): bulk drafts and large
 * selections run side by side only up to their limits, per person and per instance; the rest are
 * refused at once, saying when to try again, and nothing is half done. Real PostgreSQL, the
 * sandbox over HTTP, slowed down so that the work overlaps as it does on a busy instance.
 */
ensureEmsTestEnv();

const team = planTeamPerTest();
let ids: number[];

beforeEach(async () => {
  const token = await tokenFor(team.sandbox.baseUrl);
  ids = (await listAll<{ id: number }>(team.sandbox.baseUrl, token, "webhooks", "fields=id&sort=id")).slice(0, 60).map((hook) => hook.id);
  // Every API call takes 600 ms from here: the reads of concurrent work overlap.
  await team.sandbox.admin.injectFaults({ count: 1_000, delayMs: 600, paths: "api" });
});

const bulk = (actor: Actor, n: number) =>
  draftPlan(actor, { title: `bulk ${n}`, edits: [{ kind: "webhooks.bulk", ids, edit: { kind: "set-header", key: "X-Admission", value: `value-${n}` } }] });

const plansOf = (actor: Actor) => prisma.changePlan.count({ where: { teamId: actor.teamId } });

describe("admission of heavy work", () => {
  it("one person drafting two bulk plans at once: the second is refused, saying when to try again; nothing of it is stored", async () => {
    const outcomes = await Promise.allSettled([bulk(team.owner, 1), bulk(team.owner, 2)]);
    const refused = outcomes.filter((outcome) => outcome.status === "rejected").map((outcome) => outcome.reason);
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toBeInstanceOf(BusyError);
    expect(refused[0]).toMatchObject({ code: "busy", kind: "drafting" });
    expect(refused[0].retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused[0].message).toMatch(/try again in \d+ s/);
    expect(await plansOf(team.owner)).toBe(1);
    // Once the first is done, the same person drafts again.
    await bulk(team.owner, 3);
    expect(await plansOf(team.owner)).toBe(2);
  });

  it("more people than the instance admits draft at once: the instance's limit holds, the others are told it is busy", async () => {
    expect(HEAVY_WORK.drafting.perInstance).toBe(2);
    const people = [team.owner, team.admin, team.member];
    const outcomes = await Promise.allSettled(people.map((person, n) => bulk(person, n)));
    const refused = outcomes.filter((outcome) => outcome.status === "rejected").map((outcome) => outcome.reason);
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(2);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ code: "busy", kind: "drafting" });
    expect(refused[0].message).toMatch(/busy with other people's work/);
  });

  it("a large selection read twice at once by one person: the second view says it is busy (a page state, not an error)", async () => {
    const [first, second] = await Promise.all([
      loadSelection(team.owner, "webhooks", new URLSearchParams()),
      loadSelection(team.owner, "webhooks", new URLSearchParams("sort=-id")),
    ]);
    const kinds = [first.kind, second.kind].sort();
    expect(kinds).toEqual(["busy", "ok"]);
    const busy = [first, second].find((outcome) => outcome.kind === "busy")!;
    expect(busy).toMatchObject({ kind: "busy", message: expect.stringMatching(/try again in \d+ s/) });
    // A selection of ids (a finding's, a coverage cell's) is one page: never refused.
    const [a, b] = await Promise.all([
      loadSelection(team.owner, "webhooks", new URLSearchParams({ ids: ids.slice(0, 5).join(",") })),
      loadSelection(team.owner, "webhooks", new URLSearchParams({ ids: ids.slice(5, 10).join(",") })),
    ]);
    expect([a.kind, b.kind]).toEqual(["ok", "ok"]);
  });
});
