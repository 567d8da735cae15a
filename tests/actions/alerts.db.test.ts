// The alert actions (lib/actions/alerts/*), called as a crafted direct request would call them:
// who may set the team's Slack URL, what a bad URL is told, preferences, and "Send a test".
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
vi.mock("next/headers", () => import("./support/next-headers"));
vi.mock("next/cache", () => import("./support/next-cache"));

import { revalidatePath } from "next/cache";
import { sendTestAlertAction } from "@/lib/actions/alerts/send-test-alert";
import { setAlertPreferencesAction } from "@/lib/actions/alerts/set-alert-preferences";
import { setSlackUrlAction } from "@/lib/actions/alerts/set-slack-url";
import { recentDeliveries } from "@/lib/alerts/deliveries";
import { getAlertPreferences } from "@/lib/alerts/settings";
import { slackUrlAad } from "@/lib/alerts/slack-url";
import type { Actor } from "@/lib/access/actor";
import { REAUTH_REQUIRED_MESSAGE } from "@/lib/access/reauth-shared";
import { decryptSecret } from "@/lib/crypto";
import { prisma } from "@/lib/db/prisma";
import { allowPrivateOrigin, withEnv } from "@/tests/ems/support/env";
import { addMember, createTeam, unique } from "@/tests/teams/fixtures";
import { call, expectSignInRedirect } from "./support/call";
import { signedOutBeforeEach, signInAs } from "./support/request";

signedOutBeforeEach("/settings");

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function trackerOf(owner: Actor): Promise<string> {
  const tracker = await prisma.changeTracker.create({ data: { teamId: owner.teamId, accountKey: `account-${unique()}`, accountLabel: "api.example.test · key …1234" } });
  return tracker.id;
}

const trackerRow = (id: string) => prisma.changeTracker.findUniqueOrThrow({ where: { id }, select: { slackUrlCiphertext: true, slackUrlLabel: true } });
const auditOf = (teamId: string, action: string) => prisma.auditLog.findMany({ where: { teamId, action }, orderBy: { createdAt: "asc" } });

const OWNERS_ONLY = { status: "error", message: "Only owners can change where the team's alerts go." };
const NOT_FOUND = { status: "error", message: "That change tracker no longer exists." };
const SLACK_URL = "https://hooks.slack.com/services/T0ABC/B0DEF/s3cretT0kenValue";

describe("setSlackUrlAction", () => {
  it("sends a signed-out caller to sign-in", async () => {
    const owner = await createTeam();
    const trackerId = await trackerOf(owner);
    await expectSignInRedirect(call(setSlackUrlAction, { trackerId, url: SLACK_URL }), "/settings");
    expect(await trackerRow(trackerId)).toEqual({ slackUrlCiphertext: null, slackUrlLabel: null });
  });

  it("refuses a member and an admin of the team, and an owner of another team (as not found); stores nothing", async () => {
    const owner = await createTeam();
    const trackerId = await trackerOf(owner);
    const member = await addMember(owner, "MEMBER");
    const admin = await addMember(owner, "ADMIN");
    const stranger = await createTeam();
    await trackerOf(stranger);

    await signInAs(member);
    expect(await call(setSlackUrlAction, { trackerId, url: SLACK_URL })).toEqual(OWNERS_ONLY);
    expect(await call(setSlackUrlAction, { trackerId, url: "" })).toEqual(OWNERS_ONLY);
    await signInAs(admin);
    expect(await call(setSlackUrlAction, { trackerId, url: SLACK_URL })).toEqual(OWNERS_ONLY);
    await signInAs(stranger);
    expect(await call(setSlackUrlAction, { trackerId, url: SLACK_URL })).toEqual(NOT_FOUND);
    // A tracker that does not exist answers exactly the same.
    expect(await call(setSlackUrlAction, { trackerId: "cnotatrackerid0000000000", url: SLACK_URL })).toEqual(NOT_FOUND);
    expect(await trackerRow(trackerId)).toEqual({ slackUrlCiphertext: null, slackUrlLabel: null });
    expect(await auditOf(owner.teamId, "alerts.slack_url_set")).toEqual([]);
  });

  it("tells an owner precisely what is wrong with a bad URL", async () => {
    const owner = await createTeam();
    const trackerId = await trackerOf(owner);
    await signInAs(owner);
    const errorFor = async (url: string) => {
      const answer = await call(setSlackUrlAction, { trackerId, url });
      expect(answer.status, url).toBe("error");
      return answer.status === "error" ? answer.fieldErrors?.url : undefined;
    };
    expect(await errorFor("hooks.slack.com/services/T/B/x")).toBe("Enter the whole webhook URL, starting with https://.");
    expect(await errorFor("http://hooks.slack.com/services/T/B/x")).toBe("The webhook URL must use HTTPS (https://…).");
    expect(await errorFor("ftp://hooks.slack.com/x")).toBe("The webhook URL must use HTTPS (https://…).");
    expect(await errorFor("https://alerts:pw@hooks.slack.com/services/T/B/x")).toBe("The URL must not contain a user name or password.");
    expect(await errorFor(`https://hooks.slack.com/services/${"x".repeat(480)}`)).toBe("That URL is longer than 500 characters; no webhook URL is that long.");
    const privateMessage = "That URL points to a private network address (or a reserved one); alerts are only sent to public hosts.";
    for (const url of [
      "https://10.0.0.1/services/x",
      "https://169.254.169.254/latest",
      "https://localhost/x",
      "https://[::ffff:127.0.0.1]/x",
      "https://2130706433/x",
      "https://slack.internal/x",
    ]) {
      expect(await errorFor(url)).toBe(privateMessage);
    }
    expect(await call(setSlackUrlAction, { trackerId: "../../etc", url: SLACK_URL })).toMatchObject({
      status: "error",
      fieldErrors: { trackerId: "That change tracker no longer exists." },
    });
    expect(await trackerRow(trackerId)).toEqual({ slackUrlCiphertext: null, slackUrlLabel: null });
  });

  it("an owner sets it (encrypted, bound to the tracker, shown and audited as its origin only), replaces and clears it; setting needs a recent sign-in", async () => {
    const owner = await createTeam();
    const trackerId = await trackerOf(owner);
    const otherTrackerId = await trackerOf(owner);
    const { sessionId } = await signInAs(owner);

    const answer = await call(setSlackUrlAction, { trackerId, url: `  ${SLACK_URL}  ` });
    expect(answer).toEqual({ status: "success", message: "Saved: alerts are posted to https://hooks.slack.com. Use “Send a test” to check." });
    expect(revalidatePath).toHaveBeenCalledWith("/settings");
    const row = await trackerRow(trackerId);
    expect(row.slackUrlLabel).toBe("https://hooks.slack.com");
    expect(row.slackUrlCiphertext).not.toContain("s3cretT0ken");
    expect(decryptSecret(row.slackUrlCiphertext!, slackUrlAad(trackerId))).toBe(SLACK_URL);
    // Copied onto another tracker, it does not decrypt.
    expect(() => decryptSecret(row.slackUrlCiphertext!, slackUrlAad(otherTrackerId))).toThrow();
    const [audit] = await auditOf(owner.teamId, "alerts.slack_url_set");
    expect(audit).toMatchObject({ actorId: owner.userId, target: trackerId, metadata: { label: "https://hooks.slack.com", replaced: false } });
    expect(JSON.stringify(audit)).not.toContain("s3cretT0ken");

    // Sending the team's alerts somewhere new needs a recent re-authentication; clearing does not.
    await prisma.userSession.update({ where: { id: sessionId }, data: { reauthenticatedAt: new Date(Date.now() - 11 * 60 * 1000) } });
    expect(await call(setSlackUrlAction, { trackerId, url: "https://hooks.slack.com/services/T1/B1/other" })).toEqual({
      status: "error",
      message: REAUTH_REQUIRED_MESSAGE,
      reauthRequired: "any",
    });
    expect(decryptSecret((await trackerRow(trackerId)).slackUrlCiphertext!, slackUrlAad(trackerId))).toBe(SLACK_URL);
    expect(await call(setSlackUrlAction, { trackerId, url: "" })).toEqual({ status: "success", message: "Removed: alerts are no longer posted to Slack." });
    expect(await trackerRow(trackerId)).toEqual({ slackUrlCiphertext: null, slackUrlLabel: null });
    expect(await auditOf(owner.teamId, "alerts.slack_url_cleared")).toMatchObject([{ target: trackerId, metadata: { label: "https://hooks.slack.com" } }]);
    expect(await call(setSlackUrlAction, { trackerId })).toEqual({ status: "success", message: "No Slack URL was set." });
    expect(await auditOf(owner.teamId, "alerts.slack_url_cleared")).toHaveLength(1);
  });
});

describe("setAlertPreferencesAction", () => {
  it("a member's own choices round-trip; nobody else's change; a crafted value is refused", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const restore = withEnv({ SMTP_URL: "smtp://127.0.0.1:2525" });
    try {
      await signInAs(member);
      expect(await getAlertPreferences(member)).toEqual({ emailChanges: false, emailHealth: false });
      expect(await call(setAlertPreferencesAction, { emailChanges: "on" })).toEqual({ status: "success", message: "Saved: you get an email for changes to the setup." });
      expect(await getAlertPreferences(member)).toEqual({ emailChanges: true, emailHealth: false });
      expect(await call(setAlertPreferencesAction, { emailChanges: "on", emailHealth: "on" })).toEqual({
        status: "success",
        message: "Saved: you get an email for changes to the setup and new health findings.",
      });
      expect(await getAlertPreferences(member)).toEqual({ emailChanges: true, emailHealth: true });
      expect(await prisma.alertPreference.findUniqueOrThrow({ where: { userId: member.userId } })).toMatchObject({ teamId: owner.teamId });
      expect(await call(setAlertPreferencesAction, { emailChanges: "yes" })).toMatchObject({
        status: "error",
        fieldErrors: { emailChanges: "That is not a choice of this form." },
      });
      expect(await getAlertPreferences(member)).toEqual({ emailChanges: true, emailHealth: true });
      expect(await call(setAlertPreferencesAction, {})).toEqual({ status: "success", message: "Saved: you get no alert emails." });
      expect(await getAlertPreferences(member)).toEqual({ emailChanges: false, emailHealth: false });
      expect(await getAlertPreferences(owner)).toEqual({ emailChanges: false, emailHealth: false });
      expect(await prisma.alertPreference.findUnique({ where: { userId: owner.userId } })).toBeNull();
    } finally {
      restore();
    }
  });

  it("says so when email is off on this deployment", async () => {
    const owner = await createTeam();
    const restore = withEnv({ SMTP_URL: undefined });
    try {
      await signInAs(owner);
      expect(await call(setAlertPreferencesAction, { emailHealth: "on" })).toEqual({
        status: "success",
        message: "Saved: you get an email for new health findings. Email is off on this deployment, so none are sent until it is set up.",
      });
    } finally {
      restore();
    }
  });
});

describe("sendTestAlertAction", () => {
  it("owners and admins only, their own team's tracker only; a test reaches the receiver and is listed as a test", async () => {
    const received: string[] = [];
    const server = http.createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      request.on("end", () => {
        received.push((JSON.parse(body) as { text: string }).text);
        response.end("ok");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    cleanups.push(allowPrivateOrigin(origin));
    cleanups.push(withEnv({ SMTP_URL: undefined }));

    const owner = await createTeam();
    const trackerId = await trackerOf(owner);
    const admin = await addMember(owner, "ADMIN");
    const member = await addMember(owner, "MEMBER");
    const stranger = await createTeam();

    await signInAs(admin);
    expect(await call(sendTestAlertAction, { trackerId, channel: "slack" })).toEqual({ status: "error", message: "No Slack URL is set: save one first." });
    await signInAs(owner);
    expect(await call(setSlackUrlAction, { trackerId, url: `${origin}/services/T/B/tok` })).toMatchObject({ status: "success" });

    await signInAs(member);
    expect(await call(sendTestAlertAction, { trackerId, channel: "slack" })).toEqual({ status: "error", message: "Only owners and admins can manage the team." });
    await signInAs(stranger);
    expect(await call(sendTestAlertAction, { trackerId, channel: "slack" })).toEqual(NOT_FOUND);
    expect(received).toEqual([]);

    await signInAs(admin);
    expect(await call(sendTestAlertAction, { trackerId, channel: "email" })).toEqual({
      status: "error",
      message: "Email is off on this deployment (SMTP_URL is not set).",
    });
    expect(await call(sendTestAlertAction, { trackerId, channel: "pigeon" })).toMatchObject({ status: "error", fieldErrors: { channel: "Choose Slack or email." } });
    expect(await call(sendTestAlertAction, { trackerId, channel: "slack" })).toEqual({ status: "success", message: "Test alert sent to Slack." });
    expect(received).toHaveLength(1);
    expect(received[0]).toContain(`${admin.name} sent this test from Settings`);
    expect(received[0]!.split("\n").at(-1)).toBe("http://localhost:3000/settings/alerts");
    const [listed] = await recentDeliveries(owner, trackerId, 10);
    expect(listed).toMatchObject({ channel: "slack", recipient: "Slack", status: "sent", attempts: 1, test: true });
    await expect(recentDeliveries(stranger, trackerId, 10)).rejects.toThrow("That change tracker no longer exists.");
  });
});
