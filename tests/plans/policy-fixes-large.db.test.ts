// Drafting on the large account (issue 37 §2): 5,000 groups, 20,000 webhooks, 2,000 events, as the
// benches use it (bench/coverage.ts). The check of groups without notification emails has 1,009 findings
// there (on the days tried; live events move with the date): all of them are ONE plan, its steps written 500 at a time (store.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveCredential } from "@/lib/credentials/store";
import { prisma } from "@/lib/db/prisma";
import { flushEmsState } from "@/lib/ems";
import { setCheckPolicy } from "@/lib/health/policies";
import { runHealthChecks } from "@/lib/health/rules";
import { syncTracker, type SyncedSetup } from "@/lib/history/sync";
import { startTracking } from "@/lib/history/trackers";
import { draftPolicyFixes, type PolicyDraft } from "@/lib/plans/policy-fixes";
import { draftPlan } from "@/lib/plans/draft";
import { fixAll } from "@/lib/plans/fixes";
import type { GroupBulkEdit } from "@/lib/plans/bulk";
import { loadHealthReport } from "@/lib/health/report";
import type { StartedSandbox } from "@/lib/sandbox/testing";
import { startAllowedSandbox } from "@/tests/ems/support/sandbox";
import { createTeam } from "../teams/fixtures";

const LARGE = { key: "fixes_large", secret: "fixes-large-secret", groups: 5_000, events: 2_000, seed: 5150 };
const CHECK = "group-without-notification-emails";
let sandbox: StartedSandbox;

beforeAll(async () => {
  process.env.HISTORY_SYNC_BUDGET_PERCENT = "70";
  sandbox = await startAllowedSandbox({ accounts: [LARGE] });
  await sandbox.admin.setRateLimit({ credits: 1_000_000_000 });
}, 120_000);
afterAll(async () => {
  delete process.env.HISTORY_SYNC_BUDGET_PERCENT;
  await flushEmsState();
  await sandbox?.close();
});

describe("the large account", () => {
  it("its check's ~1,000 findings are one plan of one change each, drafted after one sync", async () => {
    const owner = await createTeam();
    await saveCredential(owner, { baseUrl: sandbox.baseUrl, consumerKey: LARGE.key, consumerSecret: LARGE.secret }, {}, { check: false });
    const { id } = await startTracking(owner, { intervalMinutes: 15 });
    await setCheckPolicy(owner, { ruleId: CHECK, policy: "draft" });
    let drafted: PolicyDraft[] = [];
    let synced: SyncedSetup | undefined;
    let draftMs = 0;
    const outcome = await syncTracker(id, {
      trigger: "manual",
      force: true,
      afterSync: async (setup) => {
        synced = setup;
        const started = performance.now();
        drafted = await draftPolicyFixes(setup);
        draftMs = performance.now() - started;
      },
    });
    expect(outcome.status).toBe("ok");
    const findings = runHealthChecks(synced!.data, { now: synced!.seenAt, requiredTriggers: [] }).filter((finding) => finding.ruleId === CHECK).length;
    expect(findings).toBeGreaterThan(1_000);
    expect(drafted).toEqual([{ check: CHECK, planId: expect.any(String), findings, operations: findings, superseded: [] }]);
    expect(await prisma.changePlanStep.count({ where: { planId: drafted[0].planId } })).toBe(findings);
    console.info(`policy fixes, large account: ${findings} findings drafted as one plan in ${draftMs.toFixed(0)} ms`);

    // Health's "Fix all N" by hand: the same findings, one bulk draft (admitted, steps in batches).
    const report = await loadHealthReport(owner);
    if (report.kind !== "ok") throw new Error(report.kind);
    const all = fixAll(report.active, CHECK, owner.email)!;
    expect(all.ids).toHaveLength(findings);
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const mine = await draftPlan(owner, { title: all.title, edits: [{ kind: "groups.bulk", ids: all.ids, edit: all.edit as GroupBulkEdit }] });
    const byHandMs = performance.now() - started;
    expect(mine.operations).toBe(findings);
    expect(await prisma.changePlanStep.count({ where: { planId: mine.planId } })).toBe(findings);
    console.info(
      `fix all by hand, large account: ${findings} changes in ${byHandMs.toFixed(0)} ms, heap ${((process.memoryUsage().heapUsed - heapBefore) / 1e6).toFixed(1)} MB more after`,
    );
  }, 180_000);
});
