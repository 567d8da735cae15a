import { describe, expect, it } from "vitest";
import type { Actor } from "@/lib/access/actor";
import { loadCoverageView } from "@/lib/coverage/stored";
import { saveCredential } from "@/lib/credentials/store";
import { prisma } from "@/lib/db/prisma";
import { credentialFingerprint, getEmsWriter } from "@/lib/ems";
import { accountKey } from "@/lib/ems-access/account-key";
import { PlanStatus } from "@/lib/generated/prisma/enums";
import { loadHealthView, type HealthViewOutcome } from "@/lib/health/view";
import { loadSetup } from "@/lib/setup/load";
import { loadSetupResult, type SetupResultOutcome, type StoredResultSpec } from "@/lib/setup/stored-results";
import { ensureEmsTestEnv } from "@/tests/ems/support/env";
import { pagedAccountForFile } from "@/tests/ems/support/setup-account";
import { addMember } from "../teams/fixtures";

/**
 * While a plan is being applied to the account, Health and Coverage show the result stored before
 * its writes, marked as being updated, instead of reading and checking the whole setup again after
 * each write (lib/setup/stored-results.ts); once the plan stops, the next views compute it once.
 * Against the sandbox over real HTTP, with the EMS writer's real writes (each drops the page it
 * changed, as a plan's steps do), on the real database. A plan applying is what lib/plans/apply.ts
 * leaves in the database while its applier lives: status `applying` under a live lease.
 */

ensureEmsTestEnv();

/** Three pages of groups and two of events at 200 a page. */
const ACCOUNT = { key: "ems_applying_results_key", secret: "applying-results-secret", groups: 450, events: 250, seed: 5656 };
const OTHER = { key: "ems_applying_other_key", secret: "applying-other-secret" };

const account = pagedAccountForFile(ACCOUNT);
const { freshProcess, readerOfTheAccount } = account;

const writer = () =>
  getEmsWriter({
    fingerprint: credentialFingerprint(account.sandbox().baseUrl, ACCOUNT.key, ACCOUNT.secret),
    baseUrl: account.sandbox().baseUrl,
    consumerKey: ACCOUNT.key,
    consumerSecret: ACCOUNT.secret,
  });

/** A plan of `teamId` applying to an account, as its applier's claim leaves it (lib/plans/apply.ts). */
async function applyingPlan(teamId: string, consumerKey = ACCOUNT.key, leaseUntil = new Date(Date.now() + 5 * 60_000)) {
  return prisma.changePlan.create({
    data: {
      teamId,
      accountKey: accountKey(account.sandbox().baseUrl, consumerKey),
      title: "Move the hooks",
      status: PlanStatus.applying,
      leaseId: "lease-1",
      leaseUntil,
    },
  });
}

async function planStopped(planId: string) {
  await prisma.changePlan.update({ where: { id: planId }, data: { status: PlanStatus.applied, leaseId: null, leaseUntil: null, appliedAt: new Date() } });
}

type Ok = Extract<HealthViewOutcome, { kind: "ok" }>;

async function health(actor: Actor): Promise<Ok> {
  const view = await loadHealthView(actor);
  if (view.kind !== "ok") throw new Error(`loadHealthView: ${view.kind}`);
  return view;
}

/** A webhook on the last page of groups whose URL is https (written to http, it is a "plain-http-url" finding), and a group of the first page. */
async function records(actor: Actor): Promise<{ hookId: number; groupId: number }> {
  const setup = await loadSetup(actor);
  if (setup.kind !== "ok") throw new Error(`loadSetup: ${setup.kind}`);
  const { groups } = setup.snapshot.data;
  return { hookId: groups.at(-1)!.webhooks!.find((webhook) => webhook.url?.startsWith("https://"))!.id, groupId: groups[3].id };
}

function ok<T>(outcome: SetupResultOutcome<T>): Extract<SetupResultOutcome<T>, { kind: "ok" }> {
  if (outcome.kind !== "ok") throw new Error(`loadSetupResult: ${outcome.kind}`);
  return outcome;
}

const flagsPlainHttp = (view: Ok, hookId: number) =>
  view.active.some((finding) => finding.ruleId === "plain-http-url" && finding.subjects.some((subject) => subject.kind === "webhook" && subject.id === hookId));

/** A result that counts how often it is computed from the whole setup (its webhooks, summed). */
function countingSpec(): StoredResultSpec<{ webhooks: number }> & { computed: number } {
  const spec = {
    kind: "health" as const,
    format: 1,
    optionsKey: `counting ${Math.random()}`,
    computed: 0,
    compute(snapshot: Parameters<StoredResultSpec<unknown>["compute"]>[0]) {
      spec.computed++;
      return { webhooks: snapshot.data.groups.reduce((sum, group) => sum + (group.webhooks?.length ?? 0), 0) };
    },
  };
  return spec;
}

describe("Health and Coverage while a plan is being applied to the account", () => {
  it("Health shows the findings stored before the plan's writes, marked as being updated, and the new ones once it stops", async () => {
    const actor = await readerOfTheAccount();
    const viewer = await addMember(actor, "MEMBER", "viewer");
    await saveCredential(viewer, { baseUrl: account.sandbox().baseUrl, consumerKey: ACCOUNT.key, consumerSecret: ACCOUNT.secret });
    const before = await health(viewer);
    expect(before.updating).toBeNull();
    const { hookId } = await records(viewer);
    expect(flagsPlainHttp(before, hookId)).toBe(false);

    const plan = await applyingPlan(actor.teamId);
    await writer().updateWebhook(hookId, { url: "http://plain.example.com/in" });
    const during = await health(viewer);
    expect(during.source).toBe("stored");
    expect(during.updating).not.toBeNull();
    expect(flagsPlainHttp(during, hookId)).toBe(false);
    expect(during.counts).toEqual(before.counts);
    // Another process (a restart, another instance) serves the stored row the same way.
    freshProcess();
    const elsewhere = await health(viewer);
    expect(elsewhere.source).toBe("stored");
    expect(elsewhere.updating?.asOf.getTime()).toBe(during.updating!.asOf.getTime());

    await planStopped(plan.id);
    const after = await health(viewer);
    expect(after.source).toBe("computed");
    expect(after.updating).toBeNull();
    expect(flagsPlainHttp(after, hookId)).toBe(true);
  });

  it("computes nothing while the plan writes, then once after it stops, for views side by side", async () => {
    const actor = await readerOfTheAccount();
    const spec = countingSpec();
    const first = ok(await loadSetupResult(actor, spec));
    expect(first.updating).toBeNull();
    expect(spec.computed).toBe(1);
    const { hookId, groupId } = await records(actor);

    const plan = await applyingPlan(actor.teamId);
    for (const [i, name] of ["one", "two", "three"].entries()) {
      await writer().updateWebhook(hookId, { name: `Step ${name}` });
      if (i === 1) await writer().createWebhook({ name: "Made by the plan", url: "https://hooks.example.com/made", trigger_object: "registrant", group_id: groupId });
      const views = await Promise.all([loadSetupResult(actor, spec), loadSetupResult(actor, spec)]);
      for (const view of views.map(ok)) {
        expect(view.updating).not.toBeNull();
        expect(view.value).toEqual(first.value);
      }
    }
    expect(spec.computed).toBe(1);

    await planStopped(plan.id);
    const after = await Promise.all([loadSetupResult(actor, spec), loadSetupResult(actor, spec), loadSetupResult(actor, spec)]);
    const again = await loadSetupResult(actor, spec);
    expect(spec.computed).toBe(2);
    for (const view of [...after, again].map(ok)) {
      expect(view.updating).toBeNull();
      expect(view.value.webhooks).toBe(first.value.webhooks + 1);
    }
  });

  it("Coverage says it is being updated too; a plan of another account, or one whose applier died, changes nothing", async () => {
    const actor = await readerOfTheAccount();
    const view = async () => {
      const coverage = await loadCoverageView(actor, "all", []);
      if (coverage.kind !== "ok") throw new Error(`loadCoverageView: ${coverage.kind}`);
      return coverage;
    };
    expect((await view()).updating).toBeNull();
    const { hookId } = await records(actor);

    // Another account's plan, and a plan of this account whose lease expired (nothing is writing).
    await applyingPlan(actor.teamId, OTHER.key);
    const dead = await applyingPlan(actor.teamId, ACCOUNT.key, new Date(Date.now() - 60_000));
    await writer().updateWebhook(hookId, { name: "Written before a restart" });
    const notApplying = await view();
    expect(notApplying.updating).toBeNull();
    expect(notApplying.source).toBe("computed");

    // Another team's plan on the same account: its writes change what this team sees too.
    const otherTeam = await readerOfTheAccount();
    const plan = await applyingPlan(otherTeam.teamId);
    await writer().updateWebhook(hookId, { name: "Written by the other team's plan" });
    const during = await view();
    expect(during.source).toBe("stored");
    expect(during.updating).not.toBeNull();
    await planStopped(plan.id);
    await planStopped(dead.id);
    expect((await view()).source).toBe("computed");
  });
});
