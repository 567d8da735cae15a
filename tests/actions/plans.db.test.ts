// The plan actions (lib/actions/plans/*) called as a crafted direct request would call them, with a
// real session cookie, against the sandbox over real HTTP: another team's plans and records, ids
// that name nothing, actions that make no sense in the plan's state, oversized and deceptive input,
// a stale session. Each answer is a precise message (a field's, or the form's), never the generic
// one, and nothing reaches the EMS.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
vi.mock("next/headers", () => import("./support/next-headers"));
vi.mock("next/cache", () => import("./support/next-cache"));
// The framework's `after` (the apply actions' work after the answer where no job engine runs): kept
// to be run by the test, as Next runs it once the answer is sent.
const afterAnswer = vi.hoisted(() => [] as (() => unknown)[]);
vi.mock("next/server", async (importOriginal) => ({ ...(await importOriginal<object>()), after: (work: () => unknown) => void afterAnswer.push(work) }));

import { draftBulkAction } from "@/lib/actions/plans/draft-bulk";
import { draftGroupBackToAction } from "@/lib/actions/plans/draft-group-back-to";
import { draftGroupCreateAction } from "@/lib/actions/plans/draft-group-create";
import { draftGroupEditAction } from "@/lib/actions/plans/draft-group-edit";
import { draftReplanAction } from "@/lib/actions/plans/draft-replan";
import { draftUndoAction } from "@/lib/actions/plans/draft-undo";
import { draftUndoChangeAction } from "@/lib/actions/plans/draft-undo-change";
import { draftWebhookCreateAction } from "@/lib/actions/plans/draft-webhook-create";
import { draftWebhookDuplicateAction } from "@/lib/actions/plans/draft-webhook-duplicate";
import { draftWebhookEditAction } from "@/lib/actions/plans/draft-webhook-edit";
import { approvePlanAction } from "@/lib/actions/plans/approve-plan";
import { applyPlanAction } from "@/lib/actions/plans/apply-plan";
import { approveAndApplyPlanAction } from "@/lib/actions/plans/approve-and-apply-plan";
import { cancelPlanAction } from "@/lib/actions/plans/cancel-plan";
import { rejectPlanAction } from "@/lib/actions/plans/reject-plan";
import { setPlanReviewAction } from "@/lib/actions/plans/set-plan-review";
import { submitPlanAction } from "@/lib/actions/plans/submit-plan";
import type { Actor } from "@/lib/access/actor";
import { REAUTH_PASSWORD_MESSAGE } from "@/lib/access/reauth-shared";
import { saveCredential } from "@/lib/credentials/store";
import { prisma } from "@/lib/db/prisma";
import { flushEmsState, WEBHOOK_FIELDS, type Webhook } from "@/lib/ems";
import { accountKey } from "@/lib/ems-access/account-key";
import { getEmsClientForActor } from "@/lib/ems-access/credential";
import { GENERIC_ERROR_MESSAGE } from "@/lib/errors";
import { syncTracker } from "@/lib/history/sync";
import { startTracking } from "@/lib/history/trackers";
import { storeDraft } from "@/lib/plans/draft";
import { draftChangesOf, loadWebhookForm } from "@/lib/plans/forms";
import { loadPlanPage } from "@/lib/plans/page";
import { approvePlan, submitPlan } from "@/lib/plans/review";
import { startApply } from "@/lib/plans/apply";
import { runDuePlans } from "@/lib/plans/run";
import { DEMO_CREDENTIALS, OTHER_CREDENTIALS } from "@/lib/sandbox/demo-credentials";
import type { ActionState } from "@/lib/forms/action-state";
import { captureOutput } from "@/tests/ems/support/capture-logs";
import { ensureEmsTestEnv, withLogLevel } from "@/tests/ems/support/env";
import { addMember, createTeam } from "@/tests/teams/fixtures";
import { call, expectSignInRedirect, redirectOf } from "./support/call";
import { signedOut, signInAs } from "./support/request";
import { startPortalSandbox, type PortalSandbox } from "./support/sandbox";
import { withOwnDatabase } from "../setup/db";

const ELEVEN_MINUTES = 11 * 60 * 1000;

// runDuePlans takes up every due plan in the database: other files' plans must not be among them
// (offers-match-server.db.test.ts saw its "approved, started" plan run by this file's runs).
withOwnDatabase();

let sandbox: PortalSandbox;
let owner: Actor;
let admin: Actor;
let member: Actor;
let hook: Webhook;
/** A webhook of the second account that the demo account does not have. */
let foreignHookId: number;

async function signedIn(actor: Actor, options: { staleMs?: number } = {}): Promise<void> {
  const { sessionId } = await signInAs(actor, { path: "/plans" });
  if (options.staleMs) {
    const then = new Date(Date.now() - options.staleMs);
    await prisma.userSession.update({ where: { id: sessionId }, data: { reauthenticatedAt: then, passwordVerifiedAt: then } });
  }
}

const statusOf = async (planId: string) => (await prisma.changePlan.findUniqueOrThrow({ where: { id: planId } })).status;
const plansOf = (actor: Actor) => prisma.changePlan.count({ where: { teamId: actor.teamId } });
/** Nothing was written to the EMS: no account's data differs from the generated one. */
const expectNoWrite = () => expect(sandbox.sandbox.state().editedAccounts).toEqual([]);

/** A refusal with a message written for people: never the generic "something went wrong". */
function expectRefused(answer: ActionState<unknown>, message: RegExp | string): void {
  expect(answer.status).toBe("error");
  const text = "message" in answer ? (answer.message ?? "") : "";
  expect(text).not.toContain(GENERIC_ERROR_MESSAGE);
  expect(text).toMatch(message);
}
function expectFieldError(answer: ActionState<unknown>, field: string, message: RegExp | string): void {
  expect(answer.status, JSON.stringify(answer)).toBe("error");
  const fieldErrors = "fieldErrors" in answer ? (answer.fieldErrors ?? {}) : {};
  expect(fieldErrors[field] ?? JSON.stringify(answer)).toMatch(message);
}

/** The webhook edit form's fields for `hook` as it is, with `overrides`. */
function editFields(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    id: String(hook.id),
    name: hook.name ?? "Hook",
    url: hook.url ?? "https://example.com/in",
    trigger_object: hook.trigger_object ?? "registrant",
    content_type: hook.content_type ?? "json",
    group_id: hook.group_id ? String(hook.group_id) : "",
    ...(hook.enabled ? { enabled: "on" } : {}),
    ...(hook.trigger_on_insert ? { trigger_on_insert: "on" } : {}),
    ...(hook.trigger_on_update ? { trigger_on_update: "on" } : {}),
    ...(hook.trigger_on_delete ? { trigger_on_delete: "on" } : {}),
    ...(hook.public_user ? { public_user: "on" } : {}),
    ...(hook.admin_user ? { admin_user: "on" } : {}),
    ...(hook.api_call ? { api_call: "on" } : {}),
    ...(hook.any_event ? { any_event: "on" } : {}),
    event_ids: (hook.event_ids ?? []).join(","),
    notes: hook.notes ?? "",
    ...Object.fromEntries(
      (hook.headers ?? []).flatMap((header, index) => [
        [`header.${index}.key`, header.key],
        [`header.${index}.action`, "keep"],
      ]),
    ),
    ...overrides,
  };
}

/** A plan of the demo team drafted, sent and approved through the data functions (the way the pages do). */
async function approvedPlan(values: Partial<Webhook> = { name: `Approved ${Date.now()}` }): Promise<string> {
  const { planId } = await storeDraft(
    member,
    { title: "An approved plan" },
    [{ operation: "webhooks.update", recordId: hook.id, before: hook, changes: values }],
    demoAccountKey(),
  );
  await submitPlan(member, planId);
  await approvePlan(admin, planId);
  return planId;
}

const demoAccountKey = () => accountKey(sandbox.baseUrl, DEMO_CREDENTIALS.consumerKey);

beforeAll(async () => {
  ensureEmsTestEnv();
  sandbox = await startPortalSandbox();
});
afterAll(() => sandbox?.close());
afterEach(() => flushEmsState());

beforeEach(async () => {
  sandbox.sandbox.reset();
  owner = await createTeam();
  admin = await addMember(owner, "ADMIN");
  member = await addMember(owner, "MEMBER");
  for (const person of [owner, admin, member]) await saveCredential(person, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS }, {}, { check: false });
  const client = (await getEmsClientForActor(owner))!;
  // A webhook with a header of its own: its value must stay on the server through every attack.
  const page = (await client.listWebhooks({ perPage: 100, fields: ["id", "headers"], sort: [{ field: "id", direction: "asc" }] })).items;
  const withHeader = page.find((candidate) => (candidate.headers ?? []).some((header) => header.value.length >= 4))!;
  expect(withHeader, "the demo data has a webhook with a header").toBeTruthy();
  hook = (await client.getOne("webhooks", withHeader.id, { fields: [...WEBHOOK_FIELDS] })).item as Webhook;
  if (foreignHookId === undefined) {
    const stranger = await createTeam();
    await saveCredential(stranger, { baseUrl: sandbox.baseUrl, ...OTHER_CREDENTIALS }, {}, { check: false });
    const theirs = (await (await getEmsClientForActor(stranger))!.listWebhooks({ perPage: 50, sort: [{ field: "id", direction: "desc" }] })).items;
    for (const candidate of theirs) {
      if (!(await client.getOne("webhooks", candidate.id, { fields: ["id"] })).item) {
        foreignHookId = candidate.id;
        break;
      }
    }
    expect(foreignHookId, "the second account has a webhook the demo account does not").toBeDefined();
  }
});

describe("another team's plans and another account's records", () => {
  it("every plan action on another team's plan is 'not found', and the plan stays as it was", async () => {
    const theirPlan = await approvedPlan();
    const stranger = await createTeam();
    await saveCredential(stranger, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS }, {}, { check: false });
    await signedIn(stranger);
    const planId = theirPlan;
    for (const action of [submitPlanAction, approvePlanAction, cancelPlanAction, applyPlanAction, draftUndoAction, draftReplanAction]) {
      expectRefused(await call(action, { planId }), /not in your team/);
    }
    expectRefused(await call(rejectPlanAction, { planId, reason: "Mine now" }), /not in your team/);
    expect(await statusOf(planId)).toBe("approved");
    expect(await plansOf(stranger)).toBe(0);
    expectNoWrite();
  });

  it("a webhook or group id of another account is that field's message, and plans nothing", async () => {
    await signedIn(member);
    const before = await plansOf(owner);
    expectFieldError(await call(draftWebhookEditAction, editFields({ id: String(foreignHookId), name: "Took it" })), "id", /is not in this account/);
    expectFieldError(await call(draftWebhookEditAction, editFields({ group_id: "2147483000" })), "group_id", /is not in this account/);
    expectFieldError(
      await call(draftBulkAction, { resource: "webhooks", ids: `${hook.id},${foreignHookId}`, edit: "set-enabled", enabled: "false" }),
      "ids",
      new RegExp(`#${foreignHookId} is not in this account`),
    );
    expectFieldError(await call(draftWebhookDuplicateAction, { id: String(foreignHookId), group_id: "" }), "id", /is not in this account/);
    expectFieldError(await call(draftWebhookDuplicateAction, { id: String(hook.id), group_id: "2147483000" }), "group_id", /is not in this account/);
    expectFieldError(await call(draftGroupEditAction, { id: "2147483000", name: "Ours now", notification_emails: "" }), "id", /is not in this account/);
    expect(await plansOf(owner)).toBe(before);
    expectNoWrite();
  });
});

describe("ids that name nothing", () => {
  it("a plan id that is not one: the field's message", async () => {
    await signedIn(owner);
    for (const planId of ["1", "-1", "1.5", "1e309", "", "../../plans", "x".repeat(36), "NaN"]) {
      for (const action of [submitPlanAction, approvePlanAction, applyPlanAction, cancelPlanAction, draftUndoAction]) {
        expectFieldError(await call(action, { planId }), "planId", "That plan does not exist.");
      }
    }
    expectFieldError(await call(draftUndoChangeAction, { changeId: "-1" }), "changeId", "That change does not exist.");
  });

  it("a record id that is not one (string, negative, fraction, 1e309, past 32 bits): the field's message", async () => {
    await signedIn(member);
    const before = await plansOf(owner);
    for (const id of ["abc", "-1", "0", "1.5", "1e309", "-1e309", "99999999999", "Infinity", ""]) {
      expectFieldError(await call(draftWebhookEditAction, editFields({ id })), "id", "That record does not exist.");
    }
    for (const group_id of ["abc", "-3", "2.5", "1e309", "99999999999"]) {
      expectFieldError(await call(draftWebhookEditAction, editFields({ group_id })), "group_id", "That webhook group does not exist.");
    }
    for (const ids of ["1e309", "-4", "2.5", "abc", "99999999999", `${hook.id},Infinity`]) {
      expectFieldError(
        await call(draftBulkAction, { resource: "webhooks", ids, edit: "set-enabled", enabled: "false" }),
        "ids",
        /does not exist; choose the records again/,
      );
    }
    for (const groupId of ["1e309", "-2", "abc", "1.5"]) {
      expectFieldError(await call(draftBulkAction, { resource: "webhooks", ids: String(hook.id), edit: "move-to-group", groupId }), "groupId", /does not exist/);
    }
    expect(await plansOf(owner)).toBe(before);
    expectNoWrite();
  });
});

describe("actions that make no sense in the plan's state", () => {
  it("each is refused with what the plan's state allows, and nothing is written", async () => {
    const { planId: draft } = await storeDraft(
      member,
      { title: "A draft" },
      [{ operation: "webhooks.update", recordId: hook.id, before: hook, changes: { name: "Drafted" } }],
      demoAccountKey(),
    );
    await signedIn(admin);
    expectRefused(await call(approvePlanAction, { planId: draft }), "Only a plan sent for review can be approved; this one is not (any more).");
    expectRefused(await call(rejectPlanAction, { planId: draft, reason: "No" }), "Only a plan waiting for review or approved can be rejected.");
    expectFieldError(await call(rejectPlanAction, { planId: draft, reason: "Looks fine \u202Eton" }), "reason", /invisible control characters/);
    expectRefused(await call(applyPlanAction, { planId: draft }), "Only an approved plan can be applied.");
    expectRefused(await call(draftUndoAction, { planId: draft }), "Nothing of this plan was applied: there is nothing to undo.");
    expectRefused(await call(draftReplanAction, { planId: draft }), "Only a plan that stopped (a conflict or a failed step) is planned again.");

    // Someone else's draft: another member cannot send it for review.
    const otherMember = await addMember(owner, "MEMBER");
    await signedIn(otherMember);
    expectRefused(await call(submitPlanAction, { planId: draft }), "Only its author, an owner or an admin can send this plan for review.");
    expectRefused(await call(cancelPlanAction, { planId: draft }), "Only its author, an owner or an admin can cancel this plan.");
    expect(await statusOf(draft)).toBe("draft");

    // Rejected, cancelled: not applied.
    await signedIn(member);
    expect((await call(submitPlanAction, { planId: draft })).status).toBe("success");
    await signedIn(owner);
    expect((await call(rejectPlanAction, { planId: draft, reason: "Not now" })).status).toBe("success");
    expectRefused(await call(applyPlanAction, { planId: draft }), "Only an approved plan can be applied.");
    expectRefused(await call(approvePlanAction, { planId: draft }), "Only a plan sent for review can be approved; this one is not (any more).");
    expect((await call(cancelPlanAction, { planId: draft })).status).toBe("success");
    expectRefused(await call(applyPlanAction, { planId: draft }), "Only an approved plan can be applied.");
    expectRefused(await call(submitPlanAction, { planId: draft }), "Only a draft can be sent for review; this plan has moved on.");

    // An approved plan cannot be edited in place ("Edit the change" replaces drafts only): it stays approved, as approved.
    const approved = await approvedPlan();
    const approval = await prisma.changePlan.findUniqueOrThrow({ where: { id: approved } });
    await signedIn(member);
    expectRefused(await call(draftWebhookEditAction, editFields({ name: "Swapped after approval", replacesPlanId: approved })), /can no longer be edited/);
    expect(await prisma.changePlan.findUniqueOrThrow({ where: { id: approved } })).toMatchObject({ status: "approved", approvedDigest: approval.approvedDigest });

    // Being applied: its author (a member) cannot stop it; an applied one is not applied again.
    const applying = await approvedPlan();
    await prisma.changePlan.update({ where: { id: applying }, data: { status: "applying" } });
    await signedIn(member);
    expectRefused(await call(cancelPlanAction, { planId: applying }), "Only owners and admins can stop a plan being applied.");
    expect(await statusOf(applying)).toBe("applying");
    await prisma.changePlan.update({ where: { id: applying }, data: { status: "applied" } });
    await signedIn(owner);
    expectRefused(await call(applyPlanAction, { planId: applying }), "This plan is already applied.");
    expectRefused(await call(cancelPlanAction, { planId: applying }), "This plan is not waiting or being applied: there is nothing to cancel.");
    expectNoWrite();
  });
});

describe("oversized and deceptive input", () => {
  it("URLs that are not plain http(s), names and titles that read differently than they look, oversized headers and selections", async () => {
    await signedIn(member);
    const before = await plansOf(owner);
    for (const url of [
      "javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "file:///etc/passwd",
      "ftp://example.com/in",
      "https://example.com/in\u0000.evil",
      "https://example.com/a\u0007b",
      "https://example.com/a b",
      "https://example.com/\u202Eni/",
      "https:/\t/example.com/in",
    ]) {
      expectFieldError(await call(draftWebhookEditAction, editFields({ url })), "url", /absolute http or https URL/);
    }
    expectFieldError(await call(draftWebhookEditAction, editFields({ name: "Invoices \u202Egnp.exe" })), "name", /invisible control characters/);
    expectFieldError(await call(draftWebhookEditAction, editFields({ name: "x".repeat(256) })), "name", /at most 255/);
    expectFieldError(await call(draftWebhookEditAction, editFields({ name: "Renamed", title: "Harmless \u202Eetelped lla" })), "title", /invisible control characters/);
    expectFieldError(await call(draftWebhookEditAction, editFields({ name: "Renamed", title: "t".repeat(201) })), "title", /at most 200/);
    expectFieldError(
      await call(draftWebhookEditAction, editFields({ "newHeader.0.key": "X-Api\u200BKey", "newHeader.0.value": "v" })),
      "newHeader.0.key",
      /invisible control characters/,
    );
    expectFieldError(
      await call(draftWebhookEditAction, editFields({ "newHeader.0.key": "X-Big", "newHeader.0.value": "v".repeat(512 * 1024) })),
      "newHeader.0.value",
      "A header value is at most 4,096 characters.",
    );
    expectFieldError(
      await call(draftBulkAction, { resource: "webhooks", ids: String(hook.id), edit: "set-header", key: "X-\u202EKey", value: "v" }),
      "key",
      /invisible control characters/,
    );
    expectFieldError(
      await call(draftBulkAction, { resource: "webhooks", ids: String(hook.id), edit: "set-header", key: "X-Key", value: "v".repeat(5000) }),
      "value",
      "A header value is at most 4,096 characters.",
    );
    const group = String(hook.group_id);
    expectFieldError(await call(draftGroupEditAction, { id: group, name: "G", notification_emails: "a@example.com ".repeat(1000) }), "notification_emails", /Too many/);
    expectFieldError(
      await call(draftGroupEditAction, { id: group, name: "G", notification_emails: Array.from({ length: 51 }, (_, n) => `n${n}@example.com`).join(",") }),
      "notification_emails",
      "At most 50 notification addresses.",
    );
    expectFieldError(await call(draftGroupEditAction, { id: group, name: "G\u202E", notification_emails: "" }), "name", /invisible control characters/);
    expectFieldError(
      await call(draftGroupEditAction, { id: group, name: "G", notification_emails: "", "newHeader.0.key": "X-Big", "newHeader.0.value": "v".repeat(4097) }),
      "newHeader.0.value",
      "A header value is at most 4,096 characters.",
    );
    const newGroup = { name: "New group", notification_emails: "" };
    expectFieldError(
      await call(draftGroupCreateAction, { ...newGroup, "newHeader.0.key": "X-K", "newHeader.0.value": "v".repeat(4097) }),
      "newHeader.0.value",
      /at most 4,096/,
    );
    expectFieldError(await call(draftGroupCreateAction, { ...newGroup, "newHeader.0.key": "X-\u2066K", "newHeader.0.value": "v" }), "newHeader.0.key", /invisible/);
    expectFieldError(await call(draftGroupCreateAction, { ...newGroup, title: "\u202Ereview me" }), "title", /invisible control characters/);
    for (const groupId of ["1e309", "-1", "1.5"])
      expectFieldError(await call(draftGroupBackToAction, { groupId, at: "2026-11-20T14:02:00Z" }), "groupId", "That record does not exist.");
    expectFieldError(await call(draftGroupBackToAction, { groupId: group, at: "yesterday" }), "at", /Choose the moment/);
    // 10,000 and 30,000 records selected: the same message, whatever the list's length.
    for (const count of [10_000, 30_000]) {
      const ids = Array.from({ length: count }, (_, index) => index + 1).join(",");
      expectFieldError(await call(draftBulkAction, { resource: "webhooks", ids, edit: "set-enabled", enabled: "false" }), "ids", /at most 5,000 records/);
    }
    expect(await plansOf(owner)).toBe(before);
    expectNoWrite();
  });
});

describe("a stale session (older than the recent-password window)", () => {
  it("cannot approve, apply, change the review setting or try header values; it may draft, and an undo it drafts still needs a recent password to apply", async () => {
    const planId = await approvedPlan();
    const submitted = (
      await storeDraft(member, { title: "Waiting" }, [{ operation: "webhooks.update", recordId: hook.id, before: hook, changes: { notes: "n" } }], demoAccountKey())
    ).planId;
    await submitPlan(member, submitted);
    await signedIn(owner, { staleMs: ELEVEN_MINUTES });
    const refused = { status: "error", message: REAUTH_PASSWORD_MESSAGE, reauthRequired: "password" };
    expect(await call(approvePlanAction, { planId: submitted })).toEqual(refused);
    expect(await call(applyPlanAction, { planId })).toEqual(refused);
    expect(await call(setPlanReviewAction, { review: "off" })).toEqual(refused);
    // Nor reject or cancel a plan, nor stop one being applied: each changes what reaches the EMS.
    expect(await call(rejectPlanAction, { planId: submitted, reason: "From a stale session" })).toEqual(refused);
    expect(await call(cancelPlanAction, { planId: submitted })).toEqual(refused);
    expect(await call(cancelPlanAction, { planId })).toEqual(refused);
    expect(await statusOf(submitted)).toBe("submitted");
    expect(await statusOf(planId)).toBe("approved");
    expect((await prisma.changePlan.findUniqueOrThrow({ where: { id: planId } })).appliedById).toBeNull();
    expect((await prisma.team.findUniqueOrThrow({ where: { id: owner.teamId } })).planReview).toBeNull();

    // Drafting changes nothing in the EMS: a stale session may draft, an undo included.
    expect(await redirectOf(call(draftWebhookEditAction, editFields({ name: "Drafted while stale" })))).toMatch(/^\/plans\/[0-9a-f-]{36}$/);
    // But not a header value typed against a record's: whether it "changes nothing" would tell a
    // guess of the EMS's value (a value a stale session may not read).
    const plansBefore = await prisma.changePlan.count({ where: { teamId: owner.teamId } });
    expect(hook.headers?.length).toBeGreaterThan(0);
    expect(await call(draftWebhookEditAction, editFields({ "header.0.action": "replace", "header.0.value": "a-guess" }))).toEqual(refused);
    expect(await call(draftWebhookEditAction, editFields({ "newHeader.0.key": "X-Guess", "newHeader.0.value": "a-guess" }))).toEqual(refused);
    expect(await call(draftBulkAction, { resource: "webhooks", ids: String(hook.id), edit: "set-header", key: hook.headers![0].key, value: "a-guess" })).toEqual(refused);
    // Nor on a new record: the impact would say whether another group already sends that value.
    const guess = { "newHeader.0.key": hook.headers![0].key, "newHeader.0.value": "a-guess" };
    expect(await call(draftGroupCreateAction, { name: "Guessing group", notification_emails: "", ...guess })).toEqual(refused);
    expect(await call(draftWebhookCreateAction, editFields({ name: "Guessing webhook", ...guess }))).toEqual(refused);
    expect(await prisma.changePlan.count({ where: { teamId: owner.teamId } })).toBe(plansBefore);
    await startApply(admin, planId);
    await runDuePlans();
    expect(await statusOf(planId)).toBe("applied");
    const undo = (await redirectOf(call(draftUndoAction, { planId }))).split("/").pop()!;
    await submitPlan(owner, undo);
    await approvePlan(admin, undo);
    expect(await call(applyPlanAction, { planId: undo })).toEqual(refused);
    expect(await statusOf(undo)).toBe("approved");
  });
});

describe("the account a plan is drafted for", () => {
  it("an admin whose own credentials are for another account cannot turn the team's history or a stopped plan into a plan there", async () => {
    await startTracking(owner, { intervalMinutes: 15 });
    const tracker = await prisma.changeTracker.findFirstOrThrow({ where: { teamId: owner.teamId } });
    await syncTracker(tracker.id, { trigger: "manual", force: true });
    sandbox.sandbox.applyEdits(DEMO_CREDENTIALS.consumerKey, [{ kind: "set-url", webhookId: hook.id, url: "https://elsewhere.example.net/in" }]);
    await flushEmsState();
    await syncTracker(tracker.id, { trigger: "manual", force: true });
    const change = await prisma.setupChange.findFirstOrThrow({ where: { trackerId: tracker.id, recordId: hook.id, field: "url" } });
    const stopped = await approvedPlan({ url: "https://ours.example.com/in" });
    await prisma.changePlan.update({ where: { id: stopped }, data: { status: "conflict" } });

    // The admin reads every tracked account's history (an admin), but holds credentials for the second account.
    await saveCredential(admin, { baseUrl: sandbox.baseUrl, ...OTHER_CREDENTIALS }, {}, { check: false });
    await signedIn(admin);
    const before = await plansOf(owner);
    expectRefused(await call(draftUndoChangeAction, { changeId: change.id }), /credentials are for another EMS account/);
    expectRefused(await call(draftReplanAction, { planId: stopped }), /credentials are for another EMS account/);
    expect(await plansOf(owner)).toBe(before);

    // With credentials for the tracked account, both are drafted.
    await signedIn(member);
    expect(await redirectOf(call(draftUndoChangeAction, { changeId: change.id }))).toMatch(/^\/plans\//);
    expect(await redirectOf(call(draftReplanAction, { planId: stopped }))).toMatch(/^\/plans\//);
  });
});

describe("a reviewer whose credentials read another account", () => {
  it("is shown neither that account's names nor an impact for the plan, and cannot approve it", async () => {
    await signedIn(member);
    const planId = (await redirectOf(call(draftWebhookEditAction, editFields({ name: "Reviewed from elsewhere" })))).split("/").pop()!;
    await submitPlan(member, planId);
    await saveCredential(admin, { baseUrl: sandbox.baseUrl, ...OTHER_CREDENTIALS }, {}, { check: false });

    const seen = await loadPlanPage(admin, planId);
    expect(seen.impact).toBeNull();
    expect(seen.impactUnavailable).toMatch(/another EMS account/);
    expect(seen.can.approve).toBe(false);
    expect(seen.approveBlockedBecause).toMatch(/another EMS account/);
    // The group is named by its id only, never by a name read from the other account.
    for (const section of seen.sections) expect(section.groupName).toMatch(/^(Group #\d+|No group)$/);
    await expect(approvePlan(admin, planId)).rejects.toMatchObject({ code: "forbidden" });
    expect(await statusOf(planId)).toBe("submitted");

    // With credentials for the plan's account, the same person sees the impact and approves.
    await saveCredential(admin, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS }, {}, { check: false });
    expect((await loadPlanPage(admin, planId)).impact).not.toBeNull();
    await approvePlan(admin, planId);
    expect(await statusOf(planId)).toBe("approved");
  });
});

describe("titles the portal makes", () => {
  it("undo and re-plan of a plan with a title of the longest length are drafted, their titles shortened, not a failure", async () => {
    await signedIn(member);
    const long = `${"Rename the registrant webhooks of the spring summit ".repeat(4)}`.slice(0, 200).trim();
    const planId = (await redirectOf(call(draftWebhookEditAction, editFields({ name: "Long title rename", title: long })))).split("/").pop()!;
    expect((await prisma.changePlan.findUniqueOrThrow({ where: { id: planId } })).title).toBe(long);
    await submitPlan(member, planId);
    await approvePlan(admin, planId);
    await startApply(owner, planId);
    await runDuePlans();
    expect(await statusOf(planId)).toBe("applied");

    const undo = (await redirectOf(call(draftUndoAction, { planId }))).split("/").pop()!;
    const title = (await prisma.changePlan.findUniqueOrThrow({ where: { id: undo } })).title;
    expect([...title].length).toBeLessThanOrEqual(200);
    expect(title).toMatch(/^Undo “Rename the registrant.*…$/);
  });
});

describe("header values stay on the server", () => {
  it("not in an action's answer, the plan page's data or the audit log", async () => {
    const secret = "hv-secret-5c1d8f";
    const badSecret = "hv-bad-secret-77a2";
    await signedIn(member);
    // A failing draft (a bad URL) with a new header value: the answer names fields, never the value.
    const refused = await call(draftWebhookEditAction, editFields({ url: "javascript:x", "newHeader.0.key": "X-New", "newHeader.0.value": badSecret }));
    expect(refused.status).toBe("error");
    expect(JSON.stringify(refused)).not.toContain(badSecret);
    const location = await redirectOf(call(draftWebhookEditAction, editFields({ name: "With a secret", "newHeader.0.key": "X-Secret", "newHeader.0.value": secret })));
    expect(location).not.toContain(secret);
    const planId = location.split("/").pop()!;
    const page = await loadPlanPage(member, planId);
    expect(JSON.stringify(page)).toContain("X-Secret");
    expect(JSON.stringify(page)).not.toContain(secret);
    for (const header of hook.headers!) if (header.value.length >= 4) expect(JSON.stringify(page)).not.toContain(header.value);
    // The edit page's data ("Edit the change" of this draft): header names only.
    const form = JSON.stringify([await loadWebhookForm(member, hook.id), await draftChangesOf(member, planId, hook.id)]);
    expect(form).toContain(JSON.stringify(hook.headers![0].key));
    expect(form).not.toContain(secret);
    for (const header of hook.headers!) if (header.value.length >= 4) expect(form).not.toContain(header.value);
    await submitPlan(member, planId);
    await approvePlan(admin, planId);
    await startApply(owner, planId);
    await runDuePlans();
    expect(await statusOf(planId)).toBe("applied");
    // A write reached the EMS (so the no-write checks above mean something).
    expect(sandbox.sandbox.state().editedAccounts).toEqual([DEMO_CREDENTIALS.consumerKey]);
    const audit = JSON.stringify(await prisma.auditLog.findMany({ where: { teamId: owner.teamId } }));
    expect(audit).toContain(planId);
    expect(audit).not.toContain(secret);
    expect(JSON.stringify(await prisma.changePlanStep.findMany({ where: { planId } }))).not.toContain(secret);
  });

  it("an EMS refusal that quotes the value it was sent is stored and shown masked (step, plan page, audit log)", async () => {
    const secret = "hv-quoted-9e31b0";
    await signedIn(member);
    const restoreLevel = withLogLevel("debug");
    let planId = "";
    // The portal's log lines (pino, at debug) of drafting, approving and the failed apply: none holds the value.
    const { error, lines } = await captureOutput(async () => {
      planId = (await redirectOf(call(draftWebhookEditAction, editFields({ "newHeader.0.key": "X-Quoted", "newHeader.0.value": secret })))).split("/").pop()!;
      await submitPlan(member, planId);
      await approvePlan(admin, planId);
      sandbox.sandbox.injectFaults({ count: 1, status: 422, paths: "write", quoteSent: true });
      await startApply(owner, planId);
      await runDuePlans();
    });
    restoreLevel();
    expect(error).toBeUndefined();
    expect(lines.some((line) => line.includes("ems.write") || line.includes("ems.http"))).toBe(true);
    expect(lines.filter((line) => [secret, ...hook.headers!.map((header) => header.value)].some((value) => line.includes(value)))).toEqual([]);
    expect(await statusOf(planId)).toBe("failed");
    const [step] = await prisma.changePlanStep.findMany({ where: { planId } });
    // The EMS's words are kept (they say what to fix), the value is not.
    expect(step.message).toMatch(/Header value “•••” is not allowed/);
    // The sandbox quotes the first header sent: the webhook's own, kept with its value from the EMS.
    for (const header of [...hook.headers!, { value: secret }]) expect(step.message).not.toContain(header.value);
    expect(JSON.stringify(await loadPlanPage(owner, planId))).not.toContain(secret);
    const audit = JSON.stringify(await prisma.auditLog.findMany({ where: { teamId: owner.teamId, target: planId } }));
    expect(audit).toContain("Header value");
    for (const header of [...hook.headers!, { value: secret }]) expect(audit).not.toContain(header.value);
    expectNoWrite();
  });
});

describe("approveAndApplyPlanAction (a drafted fix, in one step)", () => {
  /** A fix the team's check policy drafted (lib/plans/policy-fixes.ts): no author, sent for review. */
  async function draftedFix(values: Partial<Webhook> = { name: `Fixed ${Date.now()}` }): Promise<string> {
    const { planId } = await storeDraft(
      owner,
      { title: "A drafted fix" },
      [{ operation: "webhooks.update", recordId: hook.id, before: hook, changes: values }],
      demoAccountKey(),
    );
    await prisma.changePlan.update({ where: { id: planId }, data: { authorId: null, fixCheck: "plain-http-url", status: "submitted", submittedAt: new Date() } });
    return planId;
  }

  it("signed out: sent to sign in; a member, another team, a stale session and a bad id are refused in words; nothing moves, nothing is sent", async () => {
    const planId = await draftedFix();
    signedOut({ path: "/plans" });
    await expectSignInRedirect(call(approveAndApplyPlanAction, { planId }), "/plans");
    await signedIn(member);
    expectRefused(await call(approveAndApplyPlanAction, { planId }), "Only owners and admins can approve a plan.");
    const stranger = await createTeam();
    await saveCredential(stranger, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS }, {}, { check: false });
    await signedIn(stranger);
    expectRefused(await call(approveAndApplyPlanAction, { planId }), /not in your team/);
    await signedIn(admin);
    for (const bad of ["1", "", "../../plans", "x".repeat(36)])
      expectFieldError(await call(approveAndApplyPlanAction, { planId: bad }), "planId", "That plan does not exist.");
    await signedIn(admin, { staleMs: ELEVEN_MINUTES });
    expect(await call(approveAndApplyPlanAction, { planId })).toEqual({ status: "error", message: REAUTH_PASSWORD_MESSAGE, reauthRequired: "password" });
    expect(await prisma.changePlan.findUniqueOrThrow({ where: { id: planId } })).toMatchObject({ status: "submitted", approvedById: null, appliedById: null });
    expectNoWrite();
  });

  it("a person's plan is refused in one step, even to a reviewer", async () => {
    const { planId } = await storeDraft(
      member,
      { title: "Mine" },
      [{ operation: "webhooks.update", recordId: hook.id, before: hook, changes: { notes: "n" } }],
      demoAccountKey(),
    );
    await submitPlan(member, planId);
    await signedIn(admin);
    expectRefused(await call(approveAndApplyPlanAction, { planId }), "Only a fix EMS Portal drafted is approved and applied in one step.");
    expect(await statusOf(planId)).toBe("submitted");
  });

  it("an admin approves and applies in one step: approved and started by them, then applied to the EMS", async () => {
    const name = `Fixed in one step ${Date.now()}`;
    const planId = await draftedFix({ name });
    await signedIn(admin);
    expect(await call(approveAndApplyPlanAction, { planId })).toEqual({ status: "success", message: "Approved and applying. Progress shows below." });
    expect(await prisma.changePlan.findUniqueOrThrow({ where: { id: planId } })).toMatchObject({ approvedById: admin.userId, appliedById: admin.userId });
    // What the action left to run after its answer (no job engine here).
    for (const work of afterAnswer.splice(0)) await work();
    expect(await statusOf(planId)).toBe("applied");
    const client = (await getEmsClientForActor(admin))!;
    expect((await client.getOne("webhooks", hook.id, { fields: [...WEBHOOK_FIELDS] })).item?.name).toBe(name);
  });
});
