// "Reveal" on a group's page (lib/actions/webhooks/reveal-header-value.ts), called as a crafted direct
// request would call it, against the sandbox's accounts over real HTTP: the value of one header needs
// a recent re-authentication, comes only from the caller's own EMS account, and is audited by name.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
vi.mock("next/headers", () => import("./support/next-headers"));
vi.mock("next/cache", () => import("./support/next-cache"));

import { revealHeaderValueAction } from "@/lib/actions/webhooks/reveal-header-value";
import { ReauthRequired } from "@/lib/access/recent-auth";
import { REAUTH_REQUIRED_MESSAGE } from "@/lib/access/reauth-shared";
import { TWO_FACTOR_SETUP_PATH, type Actor } from "@/lib/access/actor";
import { describeAuditRecord, sentenceText } from "@/lib/audit-log/describe";
import { getEmsClientForActor } from "@/lib/ems-access/credential";
import { saveCredential } from "@/lib/credentials/store";
import { prisma } from "@/lib/db/prisma";
import type { WebhookGroup } from "@/lib/ems";
import { revealHeaderValue } from "@/lib/listing/reveal-header";
import { DEMO_CREDENTIALS, OTHER_CREDENTIALS } from "@/lib/sandbox/demo-credentials";
import { ensureEmsTestEnv } from "@/tests/ems/support/env";
import { addMember, createTeam } from "@/tests/teams/fixtures";
import { call, expectSignInRedirect, redirectOf } from "./support/call";
import { signInAs, signedOut } from "./support/request";
import { startPortalSandbox, type PortalSandbox } from "./support/sandbox";

const ELEVEN_MINUTES = 11 * 60 * 1000;
const REFUSED = { status: "error", message: REAUTH_REQUIRED_MESSAGE, reauthRequired: "any" };

let sandbox: PortalSandbox;
/** The demo account's groups with their webhooks, straight from the sandbox. */
let demoGroups: WebhookGroup[];
/** The ids the second account has: a demo group id outside them is "another team's group". */
let otherIds: Set<number>;

async function groupsOf(actor: Actor): Promise<WebhookGroup[]> {
  const client = (await getEmsClientForActor(actor))!;
  return (await client.listWebhookGroups({ expand: ["webhooks"], perPage: 200 })).items;
}

beforeAll(async () => {
  ensureEmsTestEnv();
  sandbox = await startPortalSandbox();
  const demo = await createTeam();
  await saveCredential(demo, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
  demoGroups = await groupsOf(demo);
  const other = await createTeam();
  await saveCredential(other, { baseUrl: sandbox.baseUrl, ...OTHER_CREDENTIALS });
  otherIds = new Set((await groupsOf(other)).map((group) => group.id));
});
afterAll(() => sandbox?.close());

beforeEach(() => signedOut({ path: "/webhook-groups" }));

/** A team whose owner holds the demo credentials. */
async function demoTeam(): Promise<Actor> {
  const owner = await createTeam();
  await saveCredential(owner, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
  return owner;
}

/** A demo group (not in the second account) with a header of its own and a webhook with a header. */
function groupWithHeaders() {
  const group = demoGroups.find((each) => !otherIds.has(each.id) && each.headers?.length && each.webhooks?.some((hook) => hook.headers?.length))!;
  expect(group, "the demo data has such a group").toBeTruthy();
  const webhook = group.webhooks!.find((hook) => hook.headers?.length)!;
  return { group, groupHeader: group.headers![0]!, webhook, webhookHeader: webhook.headers![0]! };
}

const revealsOf = (teamId: string) => prisma.auditLog.findMany({ where: { teamId, action: "webhook.header_value_revealed" }, orderBy: { createdAt: "asc" } });

/** Signs `actor` in with a session that last proved itself `ageMs` ago. */
async function signedInSince(actor: Pick<Actor, "userId">, ageMs: number): Promise<void> {
  const { sessionId } = await signInAs(actor, { path: "/webhook-groups" });
  await prisma.userSession.update({ where: { id: sessionId }, data: { reauthenticatedAt: new Date(Date.now() - ageMs) } });
}

describe("revealHeaderValueAction", () => {
  it("sends a signed-out caller to sign-in, with no value and no record", async () => {
    const owner = await demoTeam();
    const { group, groupHeader } = groupWithHeaders();
    signedOut({ path: `/webhook-groups/${group.id}` });
    await expectSignInRedirect(call(revealHeaderValueAction, { groupId: String(group.id), index: "0", name: groupHeader.key }), `/webhook-groups/${group.id}`);
    expect(await revealsOf(owner.teamId)).toEqual([]);
  });

  it("answers reauthRequired to a session that proved itself 11 minutes ago, whatever the input, and reveals nothing", async () => {
    const owner = await demoTeam();
    const { group, groupHeader, webhook, webhookHeader } = groupWithHeaders();
    await signedInSince(owner, ELEVEN_MINUTES);
    expect(await call(revealHeaderValueAction, { groupId: String(group.id), index: "0", name: groupHeader.key })).toEqual(REFUSED);
    expect(await call(revealHeaderValueAction, { groupId: String(group.id), webhookId: String(webhook.id), index: "0", name: webhookHeader.key })).toEqual(REFUSED);
    // Refused before the input is read: nonsense gets the same answer, not field errors.
    expect(await call(revealHeaderValueAction, { groupId: "x" })).toEqual(REFUSED);
    expect(await revealsOf(owner.teamId)).toEqual([]);
  });

  it("is refused by the data function itself, whoever calls it: a stale session, or a member the team requires to enrol", async () => {
    const owner = await demoTeam();
    const { group, groupHeader } = groupWithHeaders();
    const target = { groupId: group.id, index: 0, name: groupHeader.key };
    await expect(revealHeaderValue({ ...owner, reauthenticatedAt: new Date(Date.now() - ELEVEN_MINUTES) }, target, { ip: "203.0.113.7" })).rejects.toBeInstanceOf(
      ReauthRequired,
    );
    await expect(revealHeaderValue({ ...owner, teamRequiresTwoFactor: true, twoFactorEnabled: false }, target, { ip: "203.0.113.7" })).rejects.toThrow(
      "Your team requires two-factor sign-in: set it up first.",
    );
    expect(await revealsOf(owner.teamId)).toEqual([]);
    expect(await revealHeaderValue(owner, target, { ip: "203.0.113.7" })).toEqual({ value: groupHeader.value });
  });

  it("sends a member the team requires to enrol in two-factor to enrol first", async () => {
    const owner = await demoTeam();
    const { group, groupHeader } = groupWithHeaders();
    await prisma.team.update({ where: { id: owner.teamId }, data: { requireTwoFactor: true } });
    await signInAs(owner, { path: "/webhook-groups" });
    expect(await redirectOf(call(revealHeaderValueAction, { groupId: String(group.id), index: "0", name: groupHeader.key }))).toBe(TWO_FACTOR_SETUP_PATH);
    expect(await revealsOf(owner.teamId)).toEqual([]);
  });

  it("refuses another team's group (read with the caller's own credential), a caller with no credential, and crafted ids; never a value, never a record", async () => {
    const owner = await demoTeam();
    const { group, groupHeader, webhook, webhookHeader } = groupWithHeaders();
    const anotherGroup = demoGroups.find((each) => each.id !== group.id && each.webhooks?.length)!;

    // Another team, on the second demo account: the group is not in their EMS account.
    const stranger = await createTeam();
    await saveCredential(stranger, { baseUrl: sandbox.baseUrl, ...OTHER_CREDENTIALS });
    await signInAs(stranger);
    expect(await call(revealHeaderValueAction, { groupId: String(group.id), index: "0", name: groupHeader.key })).toEqual({
      status: "error",
      message: "There is no such webhook group in your EMS account.",
    });
    // Another team with no credential at all.
    const empty = await createTeam();
    await signInAs(empty);
    expect(await call(revealHeaderValueAction, { groupId: String(group.id), webhookId: String(webhook.id), index: "0", name: webhookHeader.key })).toEqual({
      status: "error",
      message: "Add your EMS API credentials in Settings first.",
    });

    await signInAs(owner);
    // A group id no group has, as large as the form allows: refused in words, not a failure.
    expect(await call(revealHeaderValueAction, { groupId: "999999999999999", index: "0", name: groupHeader.key })).toEqual({
      status: "error",
      message: "There is no such webhook group in your EMS account.",
    });
    // A webhook of another group, and an id no webhook has.
    for (const webhookId of [anotherGroup.webhooks![0]!.id, 999_999_999]) {
      expect(await call(revealHeaderValueAction, { groupId: String(group.id), webhookId: String(webhookId), index: "0", name: webhookHeader.key })).toEqual({
        status: "error",
        message: "That webhook is not in this group.",
      });
    }
    // A header that is not at that place, or not there at all.
    const notThere = { status: "error", message: "That header is no longer there: the group was changed in the EMS. Reload the page." };
    expect(await call(revealHeaderValueAction, { groupId: String(group.id), index: "0", name: `${groupHeader.key}-other` })).toEqual(notThere);
    expect(await call(revealHeaderValueAction, { groupId: String(group.id), index: "99", name: groupHeader.key })).toEqual(notThere);
    // Not numbers, not positive, or missing: field errors, and no EMS call.
    const crafted: Record<string, string>[] = [
      { groupId: "abc", index: "0", name: groupHeader.key },
      { groupId: "0", index: "0", name: groupHeader.key },
      { groupId: "1e3", index: "0", name: groupHeader.key },
      { groupId: `${group.id}/../1`, index: "0", name: groupHeader.key },
      { groupId: String(group.id), webhookId: "-1", index: "0", name: groupHeader.key },
      { groupId: String(group.id), index: "-1", name: groupHeader.key },
      { groupId: String(group.id), index: "0", name: "" },
      {},
    ];
    for (const fields of crafted) {
      const answer = await call(revealHeaderValueAction, fields);
      expect(answer, JSON.stringify(fields)).toMatchObject({ status: "error", message: "That header cannot be revealed.", fieldErrors: expect.any(Object) });
    }
    for (const teamId of [owner.teamId, stranger.teamId, empty.teamId]) expect(await revealsOf(teamId)).toEqual([]);
  });

  it("answers the value of one header, the group's or a webhook's, to a member with a recent sign-in, and records the reveal by name without the value", async () => {
    const owner = await demoTeam();
    const member = await addMember(owner, "MEMBER");
    await saveCredential(member, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    const { group, groupHeader, webhook, webhookHeader } = groupWithHeaders();
    await signInAs(member, { path: `/webhook-groups/${group.id}` });

    expect(await call(revealHeaderValueAction, { groupId: String(group.id), webhookId: "", index: "0", name: groupHeader.key })).toEqual({
      status: "success",
      data: { value: groupHeader.value },
    });
    expect(await call(revealHeaderValueAction, { groupId: String(group.id), webhookId: String(webhook.id), index: "0", name: webhookHeader.key })).toEqual({
      status: "success",
      data: { value: webhookHeader.value },
    });

    const records = await revealsOf(owner.teamId);
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({
      actorId: member.userId,
      target: `webhook-group:${group.id}`,
      ip: "203.0.113.7",
      metadata: { groupId: group.id, groupName: group.name, header: groupHeader.key },
    });
    expect(records[1]).toMatchObject({
      target: `webhook:${webhook.id}`,
      metadata: { groupId: group.id, webhookId: webhook.id, webhookName: webhook.name, header: webhookHeader.key },
    });
    for (const record of records) {
      const stored = JSON.stringify(record);
      expect(stored).not.toContain(groupHeader.value);
      expect(stored).not.toContain(webhookHeader.value);
    }
    // The audit log says it in words, by name.
    const sentence = sentenceText(
      describeAuditRecord({ action: "webhook.header_value_revealed", metadata: records[1]!.metadata, actorName: "Mia", actorEmail: null, subjectName: null }),
    );
    expect(sentence).toBe(`Mia revealed the value of the header ${webhookHeader.key} of the webhook “${webhook.name}” in the webhook group “${group.name}”`);
  });
});
