// Alerts end to end against the real database, a real SMTP server and a real HTTP receiver on
// loopback: who gets them, what arrives, retries with backoff, the attempt limit, the outbound
// door's refusals, and two workers never sending one delivery twice. deliverDue acts on every due
// row of the table, so this file has a database of its own.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET as alertsCron } from "@/app/api/cron/alerts/route";
import { deliverDue, MAX_ATTEMPTS, queueAlerts, recentDeliveries } from "@/lib/alerts/deliveries";
import { setSlackUrl } from "@/lib/alerts/settings";
import { slackUrlAad } from "@/lib/alerts/slack-url";
import type { Actor } from "@/lib/access/actor";
import { encryptSecret, secretAad } from "@/lib/crypto";
import { prisma } from "@/lib/db/prisma";
import { metrics } from "@/lib/telemetry/metrics";
import { setHostResolver } from "@/lib/ems/outbound";
import { allowPrivateOrigin, withEnv, withLogLevel } from "@/tests/ems/support/env";
import { captureOutput } from "@/tests/ems/support/capture-logs";
import { addMember, createTeam, unique } from "@/tests/teams/fixtures";
import { warmPool, withOwnDatabase } from "../setup/db";
import { accountKey } from "@/lib/ems-access/account-key";
import { giveCredential, newAccount, type Account } from "../history/access-fixtures";

withOwnDatabase();

// ---- a real SMTP server on loopback, keeping every message whole --------------------------------
const mails: { to: string[]; raw: string }[] = [];
let smtp: SMTPServer;
let restoreSmtpEnv: () => void;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith("refused-")) callback(Object.assign(new Error("5.1.1 no such mailbox"), { responseCode: 550 }));
      else callback();
    },
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
      stream.on("end", () => {
        mails.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  restoreSmtpEnv = withEnv({ SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`, SMTP_FROM: "EMS Portal <alerts@example.test>" });
});

afterAll(async () => {
  restoreSmtpEnv?.();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

/** A message's headers (unfolded) and its text, decoded from its transfer encoding. */
function parseMail(raw: string): { headers: Map<string, string>; text: string } {
  const split = raw.indexOf("\r\n\r\n");
  const headers = new Map<string, string>();
  for (const line of raw
    .slice(0, split)
    .replace(/\r\n[ \t]+/g, " ")
    .split("\r\n")) {
    const colon = line.indexOf(":");
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const body = raw.slice(split + 4);
  const encoding = (headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  let text: string;
  if (encoding === "base64") text = Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  else if (encoding === "quoted-printable") {
    const soft = body.replace(/=\r\n/g, "");
    const bytes: number[] = [];
    for (let index = 0; index < soft.length; index++) {
      const hex = soft.slice(index + 1, index + 3);
      if (soft[index] === "=" && /^[0-9A-F]{2}$/i.test(hex)) {
        bytes.push(parseInt(hex, 16));
        index += 2;
      } else bytes.push(soft.charCodeAt(index));
    }
    text = Buffer.from(bytes).toString("utf8");
  } else text = body;
  return { headers, text: text.replace(/\r\n/g, "\n").replace(/\n$/, "") };
}

// ---- a Slack-compatible receiver on loopback ----------------------------------------------------
interface Receiver {
  /** The webhook URL, with a token in its path as Slack's have. */
  url: string;
  token: string;
  requests: { contentType: string | undefined; text: string }[];
  close(): Promise<void>;
}

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Answers the n-th request (0-based) with `statusFor(n)`; listed in EMS_ALLOW_PRIVATE_ORIGINS until the test ends unless `listed: false`. */
async function startReceiver(statusFor: (index: number) => number, { delayMs = 0, listed = true } = {}): Promise<Receiver> {
  const requests: Receiver["requests"] = [];
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      const index = requests.length;
      requests.push({ contentType: request.headers["content-type"], text: (JSON.parse(body) as { text: string }).text });
      setTimeout(() => {
        const status = statusFor(index);
        response.writeHead(status, { "Content-Type": "text/plain" });
        response.end(status < 300 ? "ok" : "channel_not_found");
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const token = `Xtok${unique()}${unique()}`;
  const receiver: Receiver = {
    url: `${origin}/services/T0001/B0001/${token}`,
    token,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  cleanups.push(() => receiver.close());
  if (listed) cleanups.push(allowPrivateOrigin(origin));
  return receiver;
}

// ---- fixtures -----------------------------------------------------------------------------------
/** A tracker of an account of its own; members read its history with credentials of `account`. */
async function trackerOf(owner: Actor, slackUrl?: string): Promise<{ id: string; account: Account }> {
  const account = newAccount();
  const tracker = await prisma.changeTracker.create({
    data: { teamId: owner.teamId, accountKey: accountKey(account.baseUrl, account.consumerKey), accountLabel: "api.example.test · key …1234", createdById: owner.userId },
    select: { id: true },
  });
  if (slackUrl) await setSlackUrl(owner, { trackerId: tracker.id, url: slackUrl });
  return { ...tracker, account };
}

async function syncOf(trackerId: string): Promise<string> {
  return (await prisma.setupSync.create({ data: { trackerId, trigger: "manual", status: "ok" }, select: { id: true } })).id;
}

/** A delivery tried once already and due again (its next attempt was a minute ago). */
async function dueRetry(delivery: { trackerId: string; teamId: string; syncId: string; channel: "email" | "slack"; recipient: string; body: string }): Promise<void> {
  await prisma.alertDelivery.create({ data: { ...delivery, subject: "s", attempts: 1, nextAttemptAt: new Date(Date.now() - seconds(60)) } });
}

async function prefer(actor: Actor, emailChanges: boolean, emailHealth: boolean, teamId = actor.teamId): Promise<void> {
  await prisma.alertPreference.upsert({
    where: { userId: actor.userId },
    create: { userId: actor.userId, teamId, emailChanges, emailHealth },
    update: { teamId, emailChanges, emailHealth },
  });
}

const LINK = "https://portal.example.test/changes";
const alertFor = (tracker: { id: string }, owner: Actor, syncId: string, kind: "changes" | "health" | "both", lines = ["Webhook 12 “Orders” changed: url"]) => ({
  trackerId: tracker.id,
  teamId: owner.teamId,
  syncId,
  kind,
  subject: "3 changes to your webhook setup",
  lines,
  link: LINK,
});

const deliveriesOf = (syncId: string) => prisma.alertDelivery.findMany({ where: { syncId }, orderBy: [{ channel: "asc" }, { recipient: "asc" }] });

const seconds = (count: number) => count * 1000;

/** alert_deliveries_total of the Slack channel, by result (the registry is the process's: compare before and after). */
async function slackDeliveryCounts(): Promise<Record<"sent" | "retrying", number>> {
  const { values } = await metrics().alertDeliveries.get();
  const of = (result: string) => values.find((value) => value.labels.channel === "slack" && value.labels.result === result)?.value ?? 0;
  return { sent: of("sent"), retrying: of("retrying") };
}

describe("queueAlerts", () => {
  it("emails the members whose preference wants that kind, in this team only, once per sync", async () => {
    const owner = await createTeam();
    const [changesOnly, healthOnly, both, none, movedIn] = await Promise.all([
      addMember(owner, "MEMBER", "Changes"),
      addMember(owner, "ADMIN", "Health"),
      ...["Both", "None", "Moved"].map((name) => addMember(owner, "MEMBER", name)),
    ]);
    const stranger = await createTeam();
    await Promise.all([
      prefer(changesOnly, true, false),
      prefer(healthOnly, false, true),
      prefer(both, true, true),
      prefer(none, false, false),
      // Chose in their previous team: nothing here until they choose again.
      prefer(movedIn, true, true, stranger.teamId),
      prefer(stranger, true, true),
    ]);
    const tracker = await trackerOf(owner);
    // Members read the account's history with credentials of it (the admin needs none).
    await Promise.all([changesOnly, both, none, movedIn].map((member) => giveCredential(member, tracker.account)));
    const recipientsOf = async (syncId: string) => (await deliveriesOf(syncId)).map((row) => row.recipient).sort();

    const changesSync = await syncOf(tracker.id);
    expect(await queueAlerts(alertFor(tracker, owner, changesSync, "changes"))).toBe(2);
    expect(await recipientsOf(changesSync)).toEqual([changesOnly.email, both.email].sort());
    const healthSync = await syncOf(tracker.id);
    expect(await queueAlerts(alertFor(tracker, owner, healthSync, "health"))).toBe(2);
    expect(await recipientsOf(healthSync)).toEqual([healthOnly.email, both.email].sort());
    const bothSync = await syncOf(tracker.id);
    expect(await queueAlerts(alertFor(tracker, owner, bothSync, "both"))).toBe(3);
    expect(await recipientsOf(bothSync)).toEqual([changesOnly.email, healthOnly.email, both.email].sort());

    // Each was sent at once, to exactly these addresses.
    const teamMails = mails.filter((mail) => [changesOnly, healthOnly, both, none, movedIn, stranger].some((actor) => mail.to.includes(actor.email)));
    expect(teamMails.map((mail) => mail.to[0]).sort()).toEqual(
      [changesOnly.email, both.email, healthOnly.email, both.email, changesOnly.email, healthOnly.email, both.email].sort(),
    );
    for (const syncId of [changesSync, healthSync, bothSync]) {
      expect((await deliveriesOf(syncId)).map((row) => [row.status, row.attempts])).toEqual((await deliveriesOf(syncId)).map(() => ["sent", 1]));
    }

    // The same sync again: nothing new, nothing sent.
    const before = mails.length;
    expect(await queueAlerts(alertFor(tracker, owner, bothSync, "both"))).toBe(0);
    expect(mails.length).toBe(before);
    expect(await deliveriesOf(bothSync)).toHaveLength(3);
  });

  it("emails only those who may read the account's history: owners, admins, members with its credentials; checked again when sent (issue 24, finding 10)", async () => {
    const owner = await createTeam();
    const [admin, sameAccount, withoutCredential, otherAccount, leavesAccount] = await Promise.all([
      addMember(owner, "ADMIN", "Admin"),
      ...["Same", "Without", "Other", "Leaves"].map((name) => addMember(owner, "MEMBER", name)),
    ]);
    const everyone = [owner, admin, sameAccount, withoutCredential, otherAccount, leavesAccount];
    await Promise.all(everyone.map((person) => prefer(person, true, true)));
    const tracker = await trackerOf(owner);
    await Promise.all([giveCredential(sameAccount, tracker.account), giveCredential(otherAccount, newAccount()), giveCredential(leavesAccount, tracker.account)]);

    for (const kind of ["changes", "health", "both"] as const) {
      const syncId = await syncOf(tracker.id);
      await queueAlerts(alertFor(tracker, owner, syncId, kind));
      expect((await deliveriesOf(syncId)).map((row) => row.recipient).sort()).toEqual([owner.email, admin.email, sameAccount.email, leavesAccount.email].sort());
    }
    const mailed = (person: Actor) => mails.filter((mail) => mail.to.includes(person.email)).length;
    expect(mailed(withoutCredential)).toBe(0);
    expect(mailed(otherAccount)).toBe(0);

    // Queued while they could read it, then their credential went: the retry is not sent to them.
    const syncId = await syncOf(tracker.id);
    await dueRetry({ trackerId: tracker.id, teamId: owner.teamId, syncId, channel: "email", recipient: leavesAccount.email, body: "b" });
    await prisma.apiCredential.delete({ where: { userId: leavesAccount.userId } });
    const before = mailed(leavesAccount);
    await deliverDue({ signal: new AbortController().signal });
    expect(mailed(leavesAccount)).toBe(before);
    expect(await deliveriesOf(syncId)).toMatchObject([{ status: "failed", lastError: "the recipient may no longer read this account's change history" }]);
  });

  it("without SMTP_URL queues no email, only the Slack message", async () => {
    const receiver = await startReceiver(() => 200);
    const owner = await createTeam();
    await prefer(owner, true, true);
    const tracker = await trackerOf(owner, receiver.url);
    const restore = withEnv({ SMTP_URL: undefined });
    try {
      const syncId = await syncOf(tracker.id);
      expect(await queueAlerts(alertFor(tracker, owner, syncId, "both"))).toBe(1);
      expect((await deliveriesOf(syncId)).map((row) => [row.channel, row.recipient, row.status])).toEqual([["slack", "Slack", "sent"]]);
    } finally {
      restore();
    }
  });

  it("mails exactly the subject, the lines and the link, and nothing else of the sync", async () => {
    const owner = await createTeam();
    await prefer(owner, true, false);
    const tracker = await trackerOf(owner);
    const syncId = await syncOf(tracker.id);
    // A header value the sync saw, stored as lib/history stores it (masked, the value encrypted):
    // the alert's text is the caller's lines only, so it must not appear anywhere in the mail.
    const planted = `planted-header-value-${unique()}`;
    const change = await prisma.setupChange.create({
      data: {
        trackerId: tracker.id,
        teamId: owner.teamId,
        syncId,
        kind: "webhook",
        recordId: 12,
        recordName: "Orders",
        change: "changed",
        field: "headers",
        before: { "X-Api-Key": "hmac:1111" },
        after: { "X-Api-Key": "hmac:2222" },
        seenAt: new Date(),
      },
    });
    await prisma.setupChange.update({
      where: { id: change.id },
      data: { secretCiphertext: encryptSecret(JSON.stringify({ after: { "X-Api-Key": planted } }), secretAad("SetupChange", change.id, "secret")) },
    });
    const lines = [
      "Webhook 12 “Orders” (group 3 “Shop”): headers changed (X-Api-Key: value changed)",
      "Webhook 14 “Refunds” added to group 3 “Shop”: https://hooks.example.com/refunds",
      "Événement 7 « Conférence » : trigger registration.created added",
    ];

    expect(await queueAlerts({ ...alertFor(tracker, owner, syncId, "changes", lines) })).toBe(1);
    const mail = mails.find((each) => each.to.includes(owner.email))!;
    expect(mail).toBeDefined();
    expect(mail.raw).not.toContain(planted);
    const { headers, text } = parseMail(mail.raw);
    expect(headers.get("subject")).toBe("3 changes to your webhook setup");
    expect(headers.get("from")).toBe("EMS Portal <alerts@example.test>");
    expect(text).toBe(["3 changes to your webhook setup", "", ...lines, "", LINK].join("\n"));
  });

  it("a mail server refusing the address, or not reachable: retried, with the reply code or the error code as the reason", async () => {
    const owner = await createTeam();
    const refused = await addMember(owner, "MEMBER", "Refused");
    await prefer(refused, true, true);
    const tracker = await trackerOf(owner);
    await giveCredential(refused, tracker.account);
    // Left pending, they would be due in the other tests' deliverDue calls (which count what they do).
    cleanups.push(async () => void (await prisma.alertDelivery.deleteMany({ where: { trackerId: tracker.id } })));
    const syncId = await syncOf(tracker.id);
    expect(await queueAlerts(alertFor(tracker, owner, syncId, "health"))).toBe(1);
    expect(await deliveriesOf(syncId)).toMatchObject([{ recipient: refused.email, status: "pending", attempts: 1, lastError: "the mail server answered 550" }]);

    const restore = withEnv({ SMTP_URL: "smtp://127.0.0.1:1" });
    try {
      const other = await syncOf(tracker.id);
      await queueAlerts(alertFor(tracker, owner, other, "health"));
      const [row] = await deliveriesOf(other);
      expect(row).toMatchObject({ status: "pending", attempts: 1 });
      expect(row!.lastError).toMatch(/^could not reach the mail server \(E[A-Z]+\)$/);
    } finally {
      restore();
    }
  });

  it("caps the lines at 50 and says how many more there are", async () => {
    const receiver = await startReceiver(() => 200);
    const owner = await createTeam();
    const tracker = await trackerOf(owner, receiver.url);
    const lines = Array.from({ length: 62 }, (_, index) => `Webhook ${index + 1} added`);
    await queueAlerts(alertFor(tracker, owner, await syncOf(tracker.id), "changes", lines));
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]!.text.split("\n")).toEqual(["3 changes to your webhook setup", "", ...lines.slice(0, 50), "… and 12 more", "", LINK]);
  });
});

describe("Slack deliveries", () => {
  it("a receiver failing twice (500) then answering 200: retried after 1 min and 5 min, then sent at the third attempt; the token is in no reason and no log line", async () => {
    const receiver = await startReceiver((index) => (index < 2 ? 500 : 200));
    const owner = await createTeam();
    const tracker = await trackerOf(owner, receiver.url);
    const syncId = await syncOf(tracker.id);
    const countsBefore = await slackDeliveryCounts();
    const restoreLevel = withLogLevel("debug");
    const { output, error } = await captureOutput(async () => {
      const queuedAt = Date.now();
      expect(await queueAlerts(alertFor(tracker, owner, syncId, "changes", ["Webhook 12 “Orders” changed: url", "<!channel> & <https://evil.example|click>"]))).toBe(1);
      let [row] = await deliveriesOf(syncId);
      expect(row).toMatchObject({ channel: "slack", recipient: "Slack", status: "pending", attempts: 1, lastError: "answered 500 (channel_not_found)" });
      // The first retry is a minute after the first attempt.
      expect(row!.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(queuedAt + seconds(55));
      expect(row!.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now() + seconds(65));

      const signal = new AbortController().signal;
      expect(await deliverDue({ signal, now: new Date(queuedAt + seconds(30)) })).toEqual({ sent: 0, retrying: 0, failed: 0 });
      const second = new Date(queuedAt + seconds(70));
      expect(await deliverDue({ signal, now: second })).toEqual({ sent: 0, retrying: 1, failed: 0 });
      [row] = await deliveriesOf(syncId);
      expect(row).toMatchObject({ status: "pending", attempts: 2, lastError: "answered 500 (channel_not_found)" });
      // Five minutes after the second attempt.
      expect(row!.nextAttemptAt.getTime()).toBe(second.getTime() + seconds(300));
      expect(await deliverDue({ signal, now: new Date(second.getTime() + seconds(240)) })).toEqual({ sent: 0, retrying: 0, failed: 0 });
      expect(await deliverDue({ signal, now: new Date(second.getTime() + seconds(301)) })).toEqual({ sent: 1, retrying: 0, failed: 0 });
      [row] = await deliveriesOf(syncId);
      expect(row).toMatchObject({ status: "sent", attempts: 3, lastError: null });
      expect(row!.sentAt).toBeInstanceOf(Date);
      // Sent: never again.
      expect(await deliverDue({ signal, now: new Date(second.getTime() + seconds(86_400)) })).toEqual({ sent: 0, retrying: 0, failed: 0 });
    });
    restoreLevel();
    expect(error).toBeUndefined();
    expect(receiver.requests).toHaveLength(3);
    for (const request of receiver.requests) {
      expect(request.contentType).toMatch(/^application\/json/);
      // Slack's escaping: a name from the EMS is shown as written, never a mention or a disguised link.
      expect(request.text).toBe(
        ["3 changes to your webhook setup", "", "Webhook 12 “Orders” changed: url", "&lt;!channel&gt; &amp; &lt;https://evil.example|click&gt;", "", LINK].join("\n"),
      );
    }
    expect(output).toContain("alerts.retrying");
    expect(output).not.toContain(receiver.token);
    expect(output).not.toContain("/services/T0001");
    const listed = await recentDeliveries(owner, tracker.id, 10);
    expect(listed.map((each) => [each.channel, each.status, each.attempts])).toEqual([["slack", "sent", 3]]);
    // /api/metrics counts every attempt by result (alert_deliveries_total).
    const countsAfter = await slackDeliveryCounts();
    expect({ retrying: countsAfter.retrying - countsBefore.retrying, sent: countsAfter.sent - countsBefore.sent }).toEqual({ retrying: 2, sent: 1 });
  });

  it("a receiver that always fails: failed after the attempt limit, with the reason, and not tried again", async () => {
    const receiver = await startReceiver(() => 503);
    const owner = await createTeam();
    const tracker = await trackerOf(owner, receiver.url);
    const syncId = await syncOf(tracker.id);
    const start = Date.now();
    await queueAlerts(alertFor(tracker, owner, syncId, "health"));
    const signal = new AbortController().signal;
    // Far enough apart for every backoff (1 min, 5 min, 30 min, 2 h).
    for (const hours of [1, 2, 3, 6]) await deliverDue({ signal, now: new Date(start + hours * 3_600_000) });
    const [row] = await deliveriesOf(syncId);
    expect(row).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS, lastError: "answered 503 (channel_not_found)" });
    expect(receiver.requests).toHaveLength(MAX_ATTEMPTS);
    expect(await deliverDue({ signal, now: new Date(start + 48 * 3_600_000) })).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(receiver.requests).toHaveLength(MAX_ATTEMPTS);
    expect(row!.lastError).not.toContain(receiver.token);
  });

  it("a Slack URL to a private address is refused when saved, and, saved anyway, refused by the outbound door when sent", async () => {
    const owner = await createTeam();
    const tracker = await trackerOf(owner);
    const refusal = (url: string) =>
      setSlackUrl(owner, { trackerId: tracker.id, url }).then(
        () => null,
        (error: Error) => error.message,
      );
    const receiver = await startReceiver(() => 200, { listed: false });
    expect(await refusal("https://10.0.0.1/services/x")).toBe("That URL points to a private network address (or a reserved one); alerts are only sent to public hosts.");
    expect(await refusal(`https://127.0.0.1:${new URL(receiver.url).port}/services/x`)).toBe(
      "That URL points to a private network address (or a reserved one); alerts are only sent to public hosts.",
    );
    expect(await refusal(receiver.url)).toBe("The webhook URL must use HTTPS (https://…).");
    // A public-looking name whose DNS answers a private address.
    const previous = setHostResolver(async () => [{ address: "192.168.4.20", family: 4 }]);
    try {
      expect(await refusal("https://hooks.example.com/services/T/B/x")).toBe(
        "That URL points to a private network address (or a reserved one); alerts are only sent to public hosts.",
      );
    } finally {
      setHostResolver(previous);
    }
    expect(await prisma.changeTracker.findUniqueOrThrow({ where: { id: tracker.id } })).toMatchObject({ slackUrlCiphertext: null, slackUrlLabel: null });

    // Saved while allowed (or written by hand), refused at send time: nothing reaches the receiver,
    // and the delivery fails at once (trying again cannot help).
    for (const url of [receiver.url, "https://10.0.0.1/services/T/B/secret-token-abc"]) {
      await prisma.changeTracker.update({
        where: { id: tracker.id },
        data: { slackUrlCiphertext: encryptSecret(url, slackUrlAad(tracker.id)), slackUrlLabel: new URL(url).origin },
      });
      const syncId = await syncOf(tracker.id);
      await queueAlerts(alertFor(tracker, owner, syncId, "changes"));
      const [row] = await deliveriesOf(syncId);
      expect(row!.status).toBe("failed");
      expect(row!.attempts).toBe(1);
      expect(row!.lastError).toMatch(/^the portal refused the Slack URL: (it is not HTTPS|it points to a private or reserved address)$/);
    }
    expect(receiver.requests).toHaveLength(0);
  });
});

describe("deliverDue on two workers at once", () => {
  it("sends each due delivery exactly once", async () => {
    await warmPool(5);
    // Slow answers, so both workers are mid-batch at the same time.
    const receiver = await startReceiver(() => 200, { delayMs: 30 });
    const owner = await createTeam();
    const tracker = await trackerOf(owner, receiver.url);
    const syncIds = await Promise.all(Array.from({ length: 4 }, () => syncOf(tracker.id)));
    const due = new Date(Date.now() - seconds(120));
    const count = 40;
    await prisma.alertDelivery.createMany({
      data: Array.from({ length: count }, (_, index) => ({
        trackerId: tracker.id,
        teamId: owner.teamId,
        syncId: syncIds[index % syncIds.length]!,
        channel: "slack",
        // One sync and destination each (the unique index): distinct recipients stand in for them.
        recipient: `Slack ${index}`,
        subject: "s",
        body: `delivery ${index}`,
        attempts: 1,
        nextAttemptAt: due,
      })),
    });

    const signal = new AbortController().signal;
    const [first, second] = await Promise.all([deliverDue({ signal }), deliverDue({ signal })]);
    const bodies = receiver.requests.map((request) => request.text);
    const duplicates = bodies.filter((body, index) => bodies.indexOf(body) !== index);
    expect(duplicates).toEqual([]);
    expect(new Set(bodies).size).toBe(count);
    expect(first.sent + second.sent).toBe(count);
    // Both took part (otherwise there was no race to lose).
    expect(first.sent).toBeGreaterThan(0);
    expect(second.sent).toBeGreaterThan(0);
    const rows = await prisma.alertDelivery.findMany({ where: { trackerId: tracker.id } });
    expect(rows.map((row) => [row.status, row.attempts])).toEqual(rows.map(() => ["sent", 2]));
  });
});

describe("GET /api/cron/alerts (Vercel Cron)", () => {
  it("refuses a call without CRON_SECRET's bearer token; with it, runs the alert-delivery job, which sends what is due", async () => {
    const receiver = await startReceiver(() => 200);
    const owner = await createTeam();
    const tracker = await trackerOf(owner, receiver.url);
    const syncId = await syncOf(tracker.id);
    await dueRetry({ trackerId: tracker.id, teamId: owner.teamId, syncId, channel: "slack", recipient: "Slack", body: "due by cron" });
    const secret = `cron-secret-${unique()}${unique()}`;
    cleanups.push(withEnv({ CRON_SECRET: secret }));
    const call = (authorization: string) => alertsCron(new Request("http://portal.test/api/cron/alerts", { headers: { authorization } }));

    expect((await call("Bearer wrong")).status).toBe(401);
    expect(receiver.requests).toHaveLength(0);
    const response = await call(`Bearer ${secret}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ job: "alert-delivery", result: { sent: 1, retrying: 0, failed: 0 } });
    expect(receiver.requests.map((request) => request.text)).toEqual(["due by cron"]);
    expect(await deliveriesOf(syncId)).toMatchObject([{ status: "sent", attempts: 2 }]);
  });
});
