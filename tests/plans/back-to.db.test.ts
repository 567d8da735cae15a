import { describe, expect, it } from "vitest";
import { saveCredential } from "@/lib/credentials/store";
import { prisma } from "@/lib/db/prisma";
import { WEBHOOK_FIELDS, type Webhook, type WebhookGroup } from "@/lib/ems";
import { syncTracker } from "@/lib/history/sync";
import { startTracking } from "@/lib/history/trackers";
import { startApply } from "@/lib/plans/apply";
import { approvePlan, submitPlan } from "@/lib/plans/review";
import { runDuePlans } from "@/lib/plans/run";
import { readSteps } from "@/lib/plans/store";
import { draftGroupBackTo } from "@/lib/plans/undo-as-of";
import { DEMO_CREDENTIALS } from "@/lib/sandbox/testing";
import { ensureEmsTestEnv } from "@/tests/ems/support/env";
import { createTeam } from "../teams/fixtures";
import { withOwnDatabase } from "../setup/db";
import { planTeamPerTest } from "./support/plan-team";

/**
 * Undo "as of" a time (issue 27 §2) on the real PostgreSQL against the sandbox over HTTP: a group
 * and its webhooks are changed in the EMS after history took them in; the plan drafted from the
 * group's past puts every one of those changes back, header values included, through the same
 * review and apply as any plan.
 */
ensureEmsTestEnv();
// runDuePlans takes up every due plan in the database: other files' plans must not be among them
// (offers-match-server.db.test.ts saw its "approved, started" plan run by this file's runs).
withOwnDatabase();

const team = planTeamPerTest();
const client = () => team.client();
const readHook = async (id: number) => (await client().getOne("webhooks", id, { fields: [...WEBHOOK_FIELDS] })).item as Webhook | null;
const readGroup = async (id: number) => (await client().getOne("webhook-groups", id, { expand: ["webhooks"] })).item as WebhookGroup;
const statusOf = async (planId: string) => (await prisma.changePlan.findUniqueOrThrow({ where: { id: planId } })).status;
/** A re-created record's headers come in history's order (sorted by name): compared as a set. */
const byName = (headers: readonly { key: string; value: string }[] | undefined) => [...(headers ?? [])].sort((a, b) => a.key.localeCompare(b.key));
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A group of the demo account with at least three webhooks, and another group to move one into. */
async function groupsToChange(): Promise<{ group: WebhookGroup; other: WebhookGroup }> {
  const groups = (await client().listWebhookGroups({ expand: ["webhooks"], perPage: 100 })).items as WebhookGroup[];
  const group = groups.find((candidate) => (candidate.webhooks ?? []).length >= 3)!;
  const other = groups.find((candidate) => candidate.id !== group.id)!;
  expect(group).toBeDefined();
  return { group, other };
}

async function trackedNow(): Promise<string> {
  await startTracking(team.owner, { intervalMinutes: 15 });
  const tracker = await prisma.changeTracker.findFirstOrThrow({ where: { teamId: team.owner.teamId } });
  await syncTracker(tracker.id, { trigger: "manual", force: true });
  return tracker.id;
}

describe("a group put back as it was", () => {
  it("undoes edits to the group, to its webhooks, a webhook removed, one added and one moved in, header values included", async () => {
    const { group, other } = await groupsToChange();
    const [kept, removed] = group.webhooks!;
    const mover =
      other.webhooks?.[0] ??
      (await team.writer().createWebhook({ name: "Mover", url: "https://mover.example.com/in", trigger_object: "registrant", group_id: other.id })).record;
    await team.sandbox.admin.applyEdits(DEMO_CREDENTIALS.consumerKey, [
      { kind: "set-header", target: "group", id: group.id, key: "X-Group-Key", value: "g-before-secret" },
      { kind: "set-header", target: "webhook", id: kept.id, key: "X-Api-Key", value: "k-before-secret" },
      { kind: "set-header", target: "webhook", id: removed.id, key: "X-Gone-Key", value: "gone-before-secret" },
    ]);
    await team.forget();
    const thenGroup = await readGroup(group.id);
    const thenKept = (await readHook(kept.id))!;
    const thenRemoved = (await readHook(removed.id))!;
    const trackerId = await trackedNow();
    await pause(20);
    const at = new Date();
    await pause(20);

    // Someone changes the group in the EMS web app, and moves a webhook of another group into it.
    await team.sandbox.admin.applyEdits(DEMO_CREDENTIALS.consumerKey, [
      { kind: "rename-group", groupId: group.id, name: "Renamed in the EMS" },
      { kind: "set-notification-emails", groupId: group.id, emails: ["someone@elsewhere.example"] },
      { kind: "set-header", target: "group", id: group.id, key: "X-Group-Key", value: "g-stolen" },
      { kind: "set-url", webhookId: kept.id, url: "https://attacker.example.net/collect" },
      { kind: "set-header", target: "webhook", id: kept.id, key: "X-Api-Key", value: "k-stolen" },
      { kind: "remove-webhook", webhookId: removed.id },
      { kind: "add-webhook", groupId: group.id, webhook: { name: "Added later", url: "https://later.example.com/in" } },
    ]);
    await team.writer().updateWebhook(mover.id, { group_id: group.id });
    await team.forget();
    await syncTracker(trackerId, { trigger: "manual", force: true });
    const added = (await readGroup(group.id)).webhooks!.find((hook) => hook.name === "Added later")!;

    const { planId } = await draftGroupBackTo(team.member, group.id, at);
    const steps = (await readSteps(planId)).map((step) => step.operation);
    const summary = steps.map((op) => `${op.operation} ${op.recordId ?? "new"}`).sort();
    expect(summary).toEqual(
      [`webhook-groups.update ${group.id}`, `webhooks.update ${kept.id}`, "webhooks.create new", `webhooks.delete ${added.id}`, `webhooks.update ${mover.id}`].sort(),
    );
    const groupStep = steps.find((op) => op.operation === "webhook-groups.update")!;
    expect(groupStep.changes).toEqual({ name: thenGroup.name, notification_emails: [...(thenGroup.notification_emails ?? [])].sort(), headers: thenGroup.headers });
    expect(steps.find((op) => op.recordId === kept.id)!.changes).toEqual({ url: thenKept.url, headers: thenKept.headers });
    expect(steps.find((op) => op.recordId === mover.id)!.changes).toEqual({ group_id: other.id });
    const create = steps.find((op) => op.operation === "webhooks.create")!.changes as Record<string, unknown>;
    expect(create).toMatchObject({ name: thenRemoved.name, url: thenRemoved.url, group_id: group.id });
    expect(byName(create.headers as Webhook["headers"])).toEqual(byName(thenRemoved.headers));
    // The values travel encrypted in the steps, never in the clear.
    const raw = JSON.stringify(await prisma.changePlanStep.findMany({ where: { planId } }));
    for (const secret of ["g-before-secret", "k-before-secret", "gone-before-secret"]) expect(raw).not.toContain(secret);

    await submitPlan(team.member, planId);
    await approvePlan(team.admin, planId);
    await startApply(team.owner, planId);
    await runDuePlans();
    expect(await statusOf(planId)).toBe("applied");

    await team.forget();
    const now = await readGroup(group.id);
    expect(now.name).toBe(thenGroup.name);
    expect([...(now.notification_emails ?? [])].sort()).toEqual([...(thenGroup.notification_emails ?? [])].sort());
    expect(now.headers).toEqual(thenGroup.headers);
    const back = (await readHook(kept.id))!;
    expect(back.url).toBe(thenKept.url);
    expect(back.headers).toEqual(thenKept.headers);
    expect(await readHook(added.id)).toBeNull();
    expect((await readHook(mover.id))!.group_id).toBe(other.id);
    const recreated = now.webhooks!.find((hook) => hook.name === thenRemoved.name && hook.url === thenRemoved.url);
    expect(recreated).toBeDefined();
    expect(byName((await readHook(recreated!.id))!.headers)).toEqual(byName(thenRemoved.headers));
  });

  it("says why when there is no past to go back to, and another team reaches nothing", async () => {
    const { group } = await groupsToChange();
    await expect(draftGroupBackTo(team.member, group.id, new Date())).rejects.toMatchObject({ code: "as_of_untracked" });
    const before = new Date(Date.now() - 60_000);
    await trackedNow();
    await expect(draftGroupBackTo(team.member, group.id, before)).rejects.toMatchObject({ code: "as_of_before_history" });
    await expect(draftGroupBackTo(team.member, 987_654, new Date())).rejects.toMatchObject({ code: "as_of_missing" });
    // Nothing changed since: nothing to plan.
    await expect(draftGroupBackTo(team.member, group.id, new Date())).rejects.toMatchObject({ code: "plan_empty" });
    // A person of another team, with credentials for the same account, sees only their own team's history.
    const stranger = await createTeam();
    await saveCredential(stranger, { baseUrl: team.sandbox.baseUrl, ...DEMO_CREDENTIALS }, {}, { check: false });
    await expect(draftGroupBackTo(stranger, group.id, new Date())).rejects.toMatchObject({ code: "as_of_untracked" });
  });
});
