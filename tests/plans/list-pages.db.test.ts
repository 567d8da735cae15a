import { describe, expect, it } from "vitest";
import { storeDraft } from "@/lib/plans/draft";
import { listPlans, PLANS_PER_PAGE } from "@/lib/plans/page";
import type { Webhook } from "@/lib/ems";
import { createTeam } from "../teams/fixtures";

/**
 * The plans list's page number comes from the URL (/plans?page=…): whatever it holds, the list
 * answers with a whole page in range, never a database error (a fractional offset is one).
 */
describe("listPlans with a crafted page number", () => {
  it("a fraction, a huge or a negative page is a whole page in range", async () => {
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
