import { describe, expect, it } from "vitest";
import { restoreEnvAfterEach } from "@/tests/support/env-per-test";
import { storeDraft } from "@/lib/plans/draft";
import { listPlans, loadPlanPage, OPERATIONS_PER_PAGE, PLANS_PER_PAGE } from "@/lib/plans/page";
import type { Webhook } from "@/lib/ems";
import { createTeam } from "../teams/fixtures";

/**
 * The page numbers of the plans list and a plan's page come from the URL (/plans?page=…,
 * /plans/<id>?page=…): whatever they hold, the answer is a whole page in range, never an error.
 */
restoreEnvAfterEach(["PLANS_MAX_OPEN_PER_PERSON"]);

describe("listPlans with a crafted page number", () => {
  it("a fraction, a huge or a negative page is a whole page in range", async () => {
    // Two pages of drafts: more than one person may keep open by default (lib/plans/caps.ts).
    process.env.PLANS_MAX_OPEN_PER_PERSON = String(2 * PLANS_PER_PAGE);
    const owner = await createTeam();
    const hook = { id: 7, name: "Paged", updated_at: "2026-11-27 01:00:00" } as Webhook;
    for (let n = 0; n <= PLANS_PER_PAGE; n++) {
      await storeDraft(owner, { title: `Plan ${n}` }, [{ operation: "webhooks.update", recordId: hook.id, before: hook, changes: { name: `N${n}` } }], "acct:pages");
    }
    expect((await listPlans(owner, "open", 1.01)).page).toBe(1);
    expect((await listPlans(owner, "open", 1.5)).items).toHaveLength(PLANS_PER_PAGE);
    const last = await listPlans(owner, "open", 2.99);
    expect([last.page, last.pageCount, last.items.length]).toEqual([2, 2, 1]);
    expect((await listPlans(owner, "open", 1e300)).page).toBe(2);
    expect((await listPlans(owner, "all", -5)).page).toBe(1);
  });
});

describe("loadPlanPage with a crafted page number", () => {
  it("a fraction is the whole page it falls in (a fractional start read a step that is not there)", async () => {
    const owner = await createTeam();
    const operations = Array.from({ length: OPERATIONS_PER_PAGE + 1 }, (_, n) => {
      const hook = { id: 1000 + n, name: `Hook ${n}`, updated_at: "2026-11-27 01:00:00" } as Webhook;
      return { operation: "webhooks.update" as const, recordId: hook.id, before: hook, changes: { name: `Renamed ${n}` } };
    });
    const { planId } = await storeDraft(owner, { title: "Two pages" }, operations, "acct:pages");
    for (const [asked, shown] of [
      [1.005, 1],
      [1.5, 1],
      [2.5, 2],
      [1e300, 2],
    ] as const) {
      const page = await loadPlanPage(owner, planId, { page: asked });
      expect([page.page, page.pageCount]).toEqual([shown, 2]);
    }
  });
});
