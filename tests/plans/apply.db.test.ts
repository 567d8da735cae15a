import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { flushEmsState, forgetCredential, getEmsClient, getEmsWriter, type EmsCredential, type EmsWriter, type Webhook } from "@/lib/ems";
import { saveCredential } from "@/lib/credentials/store";
import { accountKey } from "@/lib/ems-access/account-key";
import { applyPlan, applyPlanSteps, type ApplyDeps } from "@/lib/plans/apply";
import { planDigest } from "@/lib/plans/review";
import { duePlanIds } from "@/lib/plans/run";
import { EVERY_DUE_PLAN } from "./support/plan-team";
import { insertPlan } from "@/lib/plans/store";
import type { PlanStepInput } from "@/lib/plans/steps";
import { DEMO_CREDENTIALS, type StartedSandbox } from "@/lib/sandbox/testing";
import { demoCredential, startAllowedSandbox } from "@/tests/ems/support/sandbox";
import { ensureEmsTestEnv } from "@/tests/ems/support/env";
import { addMember, createTeam } from "../teams/fixtures";

/**
 * Applying a plan (lib/plans/apply.ts) on the real PostgreSQL against the sandbox over HTTP: two
 * appliers racing, an applier that stops mid-write and another that resumes, a conflict made in the
 * EMS after planning, and a step the EMS refuses. What the EMS received is counted by wrapping the
 * real writer: every call still goes over HTTP.
 */
ensureEmsTestEnv();

let sandbox: StartedSandbox;
let teamId: string;
let groupId: number;
let hooks: Webhook[];

const credential = (): EmsCredential => demoCredential(sandbox);

/** The real writer, with every write it sends recorded (name and when it started and ended). */
function recordingWriter(sent: { call: string; startedAt: number; endedAt: number }[]): EmsWriter {
  const real = getEmsWriter(credential());
  const record =
    <A extends unknown[], R>(name: string, call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const entry = { call: `${name} ${JSON.stringify(args[0])}`, startedAt: performance.now(), endedAt: Number.POSITIVE_INFINITY };
      sent.push(entry);
      try {
        return await call(...args);
      } finally {
        entry.endedAt = performance.now();
      }
    };
  return {
    createWebhook: record("createWebhook", real.createWebhook),
    updateWebhook: record("updateWebhook", real.updateWebhook),
    deleteWebhook: record("deleteWebhook", real.deleteWebhook),
    createWebhookGroup: record("createWebhookGroup", real.createWebhookGroup),
    updateWebhookGroup: record("updateWebhookGroup", real.updateWebhookGroup),
    deleteWebhookGroup: record("deleteWebhookGroup", real.deleteWebhookGroup),
    wasApplied: real.wasApplied,
  };
}

const deps = (writer: EmsWriter, extra: Partial<ApplyDeps> = {}): ApplyDeps => ({ writer, client: getEmsClient(credential()), teamId, ...extra });

beforeAll(async () => {
  sandbox = await startAllowedSandbox();
  teamId = (await createTeam()).teamId;
});
afterAll(async () => {
  await flushEmsState();
  await sandbox?.close();
});
beforeEach(async () => {
  await sandbox.admin.reset();
  await forgetCredential(credential().fingerprint);
  const client = getEmsClient(credential());
  groupId = (await client.listWebhookGroups({ fields: ["id"], perPage: 1 })).items[0].id;
  hooks = (await client.listWebhooks({ perPage: 5, sort: [{ field: "id", direction: "asc" }] })).items;
});
afterEach(() => flushEmsState());

/** Five steps: updates, creates and a delete, each with what the record was when planned. */
function fiveSteps(tag: string): PlanStepInput[] {
  const [a, b, c] = hooks;
  return [
    { operation: "webhooks.update", recordId: a.id, changes: { url: `https://${tag}.example.com/1` }, expectedUpdatedAt: a.updated_at },
    { operation: "webhooks.create", changes: { name: `${tag} two`, url: "https://hooks.example.com/2", trigger_object: "registrant", group_id: groupId } },
    {
      operation: "webhooks.update",
      recordId: b.id,
      changes: { enabled: !b.enabled, headers: [{ key: "X-Api-Key", value: "k-secret" }] },
      expectedUpdatedAt: b.updated_at,
    },
    { operation: "webhooks.create", changes: { name: `${tag} four`, url: "https://hooks.example.com/4", trigger_object: "session", group_id: groupId } },
    { operation: "webhooks.delete", recordId: c.id, changes: {}, expectedUpdatedAt: c.updated_at },
  ];
}

const plan = (tag: string, steps = fiveSteps(tag)) => insertPlan({ teamId, accountKey: "test-account", title: tag, status: "approved", steps });
const stepsOf = (planId: string) => prisma.changePlanStep.findMany({ where: { planId }, orderBy: { position: "asc" } });
const named = async (name: string) =>
  (await getEmsClient(credential()).listWebhooks({ fields: ["id", "name"], search: [{ field: "name", operator: "=", value: name }] })).items;

describe("applying a plan", () => {
  it("two appliers racing on the same plan: each step is sent once, in order, and the plan ends applied", async () => {
    const planId = await plan("race");
    // Each write takes a while, so the appliers overlap for the whole apply.
    await sandbox.admin.injectFaults({ count: 5, delayMs: 120, paths: "write" });
    const sent: { call: string; startedAt: number; endedAt: number }[] = [];
    const keepTrying = async (writer: EmsWriter) => {
      const outcomes = [];
      for (let i = 0; i < 40; i++) {
        const outcome = await applyPlanSteps(planId, deps(writer));
        outcomes.push(outcome.status);
        if (outcome.status === "applied") break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return outcomes;
    };
    const [first, second] = await Promise.all([keepTrying(recordingWriter(sent)), keepTrying(recordingWriter(sent))]);

    expect(sent.map((entry) => entry.call.split(" ")[0])).toEqual(["updateWebhook", "createWebhook", "updateWebhook", "createWebhook", "deleteWebhook"]);
    for (let i = 1; i < sent.length; i++) expect(sent[i].startedAt).toBeGreaterThanOrEqual(sent[i - 1].endedAt);
    expect([...first, ...second].filter((status) => status === "applied")).toHaveLength(1);
    expect([...first, ...second].every((status) => status === "applied" || status === "busy")).toBe(true);
    expect((await stepsOf(planId)).map((step) => step.state)).toEqual(["applied", "applied", "applied", "applied", "applied"]);
    expect(await named("race two")).toHaveLength(1);
    expect(await named("race four")).toHaveLength(1);
    expect(await prisma.changePlan.findUniqueOrThrow({ where: { id: planId } })).toMatchObject({ status: "applied", leaseId: null });
  });

  it("an applier stopped mid-write leaves the step running; the next one finds the write made and goes on, sending it never twice", async () => {
    const planId = await plan("resume");
    // The third write is made, then its answer never comes in time: the first applier gives up.
    await sandbox.admin.injectFaults({ count: 1, delayMs: 2_000, paths: "write", skip: 2, afterWrite: true });
    const sent: { call: string; startedAt: number; endedAt: number }[] = [];
    const controller = new AbortController();
    // Stopped while the third write waits for its answer (not on a fixed clock: a busy machine may
    // still be on the first steps after any fixed time).
    const watch = setInterval(() => {
      if (sent.length < 3) return;
      clearInterval(watch);
      setTimeout(() => controller.abort(new Error("the function's time ran out")), 300);
    }, 10);
    await expect(applyPlanSteps(planId, deps(recordingWriter(sent), { signal: controller.signal }))).rejects.toThrow();
    expect((await stepsOf(planId)).map((step) => step.state)).toEqual(["applied", "applied", "running", "pending", "pending"]);

    const outcome = await applyPlanSteps(planId, deps(recordingWriter(sent)));
    // Applied by this run: the third (found made), the fourth and the fifth.
    expect(outcome).toEqual({ status: "applied", applied: 3 });
    expect(sent.map((entry) => entry.call.split(" ")[0])).toEqual(["updateWebhook", "createWebhook", "updateWebhook", "createWebhook", "deleteWebhook"]);
    expect((await getEmsClient(credential()).getOne("webhooks", hooks[1].id)).item).toMatchObject({
      enabled: !hooks[1].enabled,
      headers: [{ key: "X-Api-Key", value: "k-secret" }],
    });
  });

  it("a run whose time is up stops between steps, not mid-write, and leaves the plan for the next run to finish", async () => {
    const planId = await plan("deadline");
    await sandbox.admin.injectFaults({ count: 5, delayMs: 300, paths: "write" });
    const sent: { call: string; startedAt: number; endedAt: number }[] = [];
    // Time is up once the first write was sent (read at each step, so no machine is too slow for it):
    // that write finishes, and no other starts.
    const run = deps(recordingWriter(sent));
    Object.defineProperty(run, "deadline", { get: () => (sent.length >= 1 ? 0 : Number.POSITIVE_INFINITY) });
    const paused = await applyPlanSteps(planId, run);
    expect(paused).toEqual({ status: "paused", applied: 1 });
    expect((await stepsOf(planId)).map((step) => step.state)).toEqual(["applied", "pending", "pending", "pending", "pending"]);
    expect(await prisma.changePlan.findUniqueOrThrow({ where: { id: planId } })).toMatchObject({ status: "applying", leaseId: null });
    // Released, not stranded: the next run of the plan-apply job takes it up.
    expect(await duePlanIds(EVERY_DUE_PLAN)).toContain(planId);

    expect(await applyPlanSteps(planId, deps(recordingWriter(sent)))).toEqual({ status: "applied", applied: 4 });
    expect(sent.map((entry) => entry.call.split(" ")[0])).toEqual(["updateWebhook", "createWebhook", "updateWebhook", "createWebhook", "deleteWebhook"]);
  });

  it("a record changed in the EMS after planning stops its step as a conflict, saying by whom and when", async () => {
    const planId = await plan("conflict");
    const [edit] = await sandbox.admin.applyEdits(DEMO_CREDENTIALS.consumerKey, [
      { kind: "set-url", webhookId: hooks[1].id, url: "https://changed-by-hand.example.com/" },
    ]);
    const outcome = await applyPlanSteps(planId, deps(getEmsWriter(credential())));
    expect(outcome).toMatchObject({ status: "conflict", applied: 2 });
    const steps = await stepsOf(planId);
    expect(steps.map((step) => step.state)).toEqual(["applied", "applied", "conflict", "pending", "pending"]);
    expect(steps[2].message).toBe(`Changed in the EMS by ${edit.by} at ${edit.at} UTC since this plan was made.`);
    expect((await getEmsClient(credential()).getOne("webhooks", hooks[1].id)).item?.url).toBe("https://changed-by-hand.example.com/");
    expect(await prisma.changePlan.findUniqueOrThrow({ where: { id: planId } })).toMatchObject({ status: "conflict", leaseId: null });
    // Stopped: it is not applied again until re-planned.
    expect(await applyPlanSteps(planId, deps(getEmsWriter(credential())))).toEqual({ status: "busy" });
  });

  it("a step the EMS refuses fails with the EMS's message, and the apply stops there", async () => {
    const steps = fiveSteps("refused");
    steps[1] = { operation: "webhooks.create", changes: { name: "", url: "https://hooks.example.com/x", trigger_object: "registrant" } };
    const planId = await plan("refused", steps);
    const outcome = await applyPlanSteps(planId, deps(getEmsWriter(credential())));
    expect(outcome).toMatchObject({ status: "failed", applied: 1 });
    const stored = await stepsOf(planId);
    expect(stored.map((step) => step.state)).toEqual(["applied", "failed", "pending", "pending", "pending"]);
    expect(stored[1].message).toBe("The EMS refused the change: name: Name cannot be blank.");
    // Header values are stored encrypted, never in the clear.
    expect(stored[2].changesCiphertext).not.toContain("k-secret");
  });
});

describe("a refusal that quotes a header value", () => {
  it("never shows the value, whatever the cleaning of the message did to it: two spaces, a token cut at 200 characters", async () => {
    const spaced = "Bearer  tok_live_4c8e1f9a2b7d";
    const long = `tok_live_${"9f8e7d6c5b".repeat(25)}`;
    for (const value of [spaced, long]) {
      const steps: PlanStepInput[] = [
        {
          operation: "webhooks.update",
          recordId: hooks[0].id,
          changes: { headers: [{ key: "Authorization", value }] },
          expectedUpdatedAt: hooks[0].updated_at,
        },
      ];
      const planId = await plan(`quoted ${value.length}`, steps);
      await sandbox.admin.injectFaults({ count: 1, status: 422, paths: "write", quoteSent: true });
      expect(await applyPlanSteps(planId, deps(getEmsWriter(credential())))).toMatchObject({ status: "failed" });
      const [step] = await stepsOf(planId);
      expect(step.message).toContain("Header value");
      expect(step.message).not.toMatch(/tok_live|4c8e1f9a|9f8e7d6c/);
    }
  });
});

describe("an applier's lease", () => {
  it("is kept alive while a step waits on a slow EMS, so no second applier takes the plan from a live one", async () => {
    const planId = await plan("alive");
    // The first write takes 1.5 s, five times the lease: only a renewal while it waits keeps the claim.
    await sandbox.admin.injectFaults({ count: 1, delayMs: 1_500, paths: "write" });
    const sent: { call: string; startedAt: number; endedAt: number }[] = [];
    const first = applyPlanSteps(planId, deps(recordingWriter(sent), { leaseMs: 300 }));
    await expect.poll(() => sent.length, { timeout: 10_000, interval: 20 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await applyPlanSteps(planId, deps(recordingWriter(sent), { leaseMs: 300 }))).toEqual({ status: "busy" });
    expect(await first).toEqual({ status: "applied", applied: 5 });
    expect(sent).toHaveLength(5);
  });

  it("a read before a write that the EMS keeps refusing (503) fails the step and stops the plan: it never stays 'applying' with nobody on it", async () => {
    const planId = await plan("unreadable");
    await sandbox.admin.injectFaults({ count: 20, status: 503, retryAfterSeconds: 0, paths: "api" });
    const outcome = await applyPlanSteps(planId, deps(getEmsWriter(credential())));
    expect(outcome).toMatchObject({ status: "failed", applied: 0 });
    const [first] = await stepsOf(planId);
    expect(first).toMatchObject({ state: "failed" });
    expect(first.message).toMatch(/unavailable|not answering|try again/i);
    expect(await prisma.changePlan.findUniqueOrThrow({ where: { id: planId } })).toMatchObject({ status: "failed", leaseId: null });
  });
});

describe("applyPlan: as the signed-in person", () => {
  it("an owner or admin with a recent password and credentials for the plan's account; nobody else", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const stranger = await createTeam();
    await saveCredential(owner, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS }, {}, { check: false });
    const planId = await insertPlan({
      teamId: owner.teamId,
      accountKey: accountKey(sandbox.baseUrl, DEMO_CREDENTIALS.consumerKey),
      title: "as a person",
      status: "approved",
      steps: [fiveSteps("person")[0]],
    });
    // Approved as it is now (lib/plans/review.ts): the digest of its steps.
    await prisma.changePlan.update({ where: { id: planId }, data: { approvedDigest: await planDigest(planId) } });
    await expect(applyPlan(stranger, planId)).rejects.toMatchObject({ code: "not_found" });
    await expect(applyPlan(member, planId)).rejects.toMatchObject({ code: "forbidden" });
    const stale = { ...owner, reauthenticatedAt: new Date(Date.now() - 86_400_000), passwordVerifiedAt: new Date(Date.now() - 86_400_000) };
    await expect(applyPlan(stale, planId)).rejects.toMatchObject({ name: "ReauthRequired" });
    expect((await stepsOf(planId)).map((step) => step.state)).toEqual(["pending"]);
    expect(await applyPlan(owner, planId)).toEqual({ status: "applied", applied: 1 });
    expect((await getEmsClient(credential()).getOne("webhooks", hooks[0].id)).item?.url).toBe("https://person.example.com/1");
  });
});
