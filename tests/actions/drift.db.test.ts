// The drift actions (lib/actions/plans/accept-drift.ts, reapply-drift.ts) called as a crafted
// direct request would call them, with a real session cookie, against the sandbox over real HTTP:
// signed out, the wrong role, another team's finding, ids that name nothing, and success.
import { describe, expect, it, vi } from "vitest";
vi.mock("next/headers", () => import("./support/next-headers"));
vi.mock("next/cache", () => import("./support/next-cache"));

import { acceptDriftAction } from "@/lib/actions/plans/accept-drift";
import { reapplyDriftAction } from "@/lib/actions/plans/reapply-drift";
import type { Actor } from "@/lib/access/actor";
import { saveCredential } from "@/lib/credentials/store";
import { prisma } from "@/lib/db/prisma";
import { getEmsClientForActor } from "@/lib/ems-access/credential";
import { accountKey } from "@/lib/ems-access/account-key";
import { GENERIC_ERROR_MESSAGE } from "@/lib/errors";
import { insertPlan, readSteps } from "@/lib/plans/store";
import { DEMO_CREDENTIALS } from "@/lib/sandbox/demo-credentials";
import type { ActionState } from "@/lib/forms/action-state";
import { addMember, createTeam } from "@/tests/teams/fixtures";
import { call, expectSignInRedirect, redirectOf } from "./support/call";
import { signedOutBeforeEach, signInAs } from "./support/request";
import { portalSandboxForFile } from "./support/sandbox";

const sandbox = portalSandboxForFile();

signedOutBeforeEach("/health");

const PLAN_URL = "https://crm.example.com/moved";

/**
 * A team (owner, admin, member, each with the demo account's credentials) with an applied plan that
 * set a webhook's URL, and an open drift finding on it, as lib/plans/drift.ts stores one.
 */
async function teamWithDrift(): Promise<{ owner: Actor; admin: Actor; member: Actor; findingId: string; planId: string; hookId: number }> {
  const owner = await createTeam();
  const admin = await addMember(owner, "ADMIN");
  const member = await addMember(owner, "MEMBER");
  for (const person of [owner, admin, member]) await saveCredential(person, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS }, {}, { check: false });
  const client = (await getEmsClientForActor(owner))!;
  const hook = (await client.listWebhooks({ perPage: 1, sort: [{ field: "id", direction: "desc" }] })).items[0];
  const planId = await insertPlan({
    teamId: owner.teamId,
    accountKey: accountKey(sandbox.baseUrl, DEMO_CREDENTIALS.consumerKey),
    title: "Move CRM hooks",
    status: "approved",
    steps: [{ operation: "webhooks.update", recordId: hook.id, changes: { url: PLAN_URL }, expectedUpdatedAt: hook.updated_at }],
  });
  const step = await prisma.changePlanStep.findFirstOrThrow({ where: { planId } });
  await prisma.changePlanStep.update({ where: { id: step.id }, data: { state: "applied", finishedAt: new Date() } });
  await prisma.changePlan.update({ where: { id: planId }, data: { status: "applied", appliedById: owner.userId, appliedAt: new Date() } });
  const finding = await prisma.planDrift.create({
    data: {
      teamId: owner.teamId,
      planId,
      stepId: step.id,
      kind: "webhook",
      recordId: hook.id,
      recordName: hook.name ?? null,
      field: "url",
      changedBy: "jane@example.com",
      changedAt: new Date(),
      syncId: "sync-of-the-test",
      seenAt: new Date(),
    },
  });
  return { owner, admin, member, findingId: finding.id, planId, hookId: hook.id };
}

const statusOf = async (findingId: string) => (await prisma.planDrift.findUniqueOrThrow({ where: { id: findingId } })).status;

/** A refusal with a message written for people: never the generic "something went wrong". */
function expectRefused(answer: ActionState<unknown>, message: string): void {
  expect(answer.status).toBe("error");
  const text = "message" in answer ? (answer.message ?? "") : "";
  expect(text).not.toContain(GENERIC_ERROR_MESSAGE);
  expect(text).toBe(message);
}

describe("acceptDriftAction", () => {
  it("sends a signed-out caller to sign-in and changes nothing", async () => {
    const { findingId } = await teamWithDrift();
    await expectSignInRedirect(call(acceptDriftAction, { findingId }), "/health");
    expect(await statusOf(findingId)).toBe("open");
  });

  it("refuses a member (accepting is the team's decision, as muting a Health finding is), another team's finding and an id that is not one", async () => {
    const { member, findingId } = await teamWithDrift();
    await signInAs(member);
    expectRefused(await call(acceptDriftAction, { findingId }), "Only owners and admins can manage the team.");

    const stranger = await createTeam();
    await signInAs(stranger);
    expectRefused(await call(acceptDriftAction, { findingId }), "That drift finding no longer exists, or it is not in your team.");

    expect(await call(acceptDriftAction, { findingId: "1 OR 1=1" })).toMatchObject({ status: "error", fieldErrors: { findingId: "That drift finding does not exist." } });
    expect(await call(acceptDriftAction, {})).toMatchObject({ status: "error", fieldErrors: { findingId: expect.any(String) } });
    expect(await statusOf(findingId)).toBe("open");
    expect(await prisma.auditLog.count({ where: { action: "plan.drift_accepted", actorId: { in: [member.userId] } } })).toBe(0);
  });

  it("an admin accepts it: muted with who and when, audited once; twice is told, not audited again", async () => {
    const { owner, admin, findingId, planId } = await teamWithDrift();
    await signInAs(admin);
    expect(await call(acceptDriftAction, { findingId })).toEqual({ status: "success", message: "Drift accepted: the record stays as it is in the EMS." });
    expect(await prisma.planDrift.findUniqueOrThrow({ where: { id: findingId } })).toMatchObject({
      status: "accepted",
      acceptedById: admin.userId,
      acceptedByEmail: admin.email,
    });
    await signInAs(owner);
    expectRefused(await call(acceptDriftAction, { findingId }), "That drift was already accepted.");
    expect(await prisma.auditLog.findMany({ where: { teamId: owner.teamId, action: "plan.drift_accepted" } })).toMatchObject([{ actorId: admin.userId, target: planId }]);
  });
});

describe("reapplyDriftAction", () => {
  it("sends a signed-out caller to sign-in and drafts nothing", async () => {
    const { owner, findingId } = await teamWithDrift();
    await expectSignInRedirect(call(reapplyDriftAction, { findingId }), "/health");
    expect(await prisma.changePlan.count({ where: { teamId: owner.teamId } })).toBe(1);
  });

  it("refuses another team's finding and an id that is not one; drafts nothing", async () => {
    const { owner, findingId } = await teamWithDrift();
    const stranger = await createTeam();
    await saveCredential(stranger, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS }, {}, { check: false });
    await signInAs(stranger);
    expectRefused(await call(reapplyDriftAction, { findingId }), "That drift finding no longer exists, or it is not in your team.");
    expect(await call(reapplyDriftAction, { findingId: "../plans" })).toMatchObject({
      status: "error",
      fieldErrors: { findingId: "That drift finding does not exist." },
    });
    expect(await prisma.changePlan.count({ where: { teamId: { in: [owner.teamId, stranger.teamId] } } })).toBe(1);
  });

  it("a member drafts the plan that sets the URL again and is shown it; nothing is sent to the EMS", async () => {
    const { member, findingId, hookId } = await teamWithDrift();
    await signInAs(member);
    const location = await redirectOf(call(reapplyDriftAction, { findingId }));
    const planId = location.replace("/plans/", "");
    expect(await prisma.changePlan.findUniqueOrThrow({ where: { id: planId } })).toMatchObject({ status: "draft", authorId: member.userId });
    const [step] = await readSteps(planId);
    expect(step.operation).toMatchObject({ operation: "webhooks.update", recordId: hookId, changes: { url: PLAN_URL } });
    expect((await prisma.planDrift.findUniqueOrThrow({ where: { id: findingId } })).reapplyPlanId).toBe(planId);
    expect(sandbox.sandbox.state().editedAccounts).toEqual([]);
  });
});
