import "server-only";
import { randomUUID } from "node:crypto";
import type { Actor } from "@/lib/access/actor";
import { DecryptionError, decryptSecret } from "@/lib/crypto";
import { prisma } from "@/lib/db/prisma";
import { mailEnv } from "@/lib/env";
import { SafeError, NotFoundError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { metrics } from "@/lib/telemetry/metrics";
import { inSpan, setSpanAttributes } from "@/lib/telemetry/spans";
import { memberMayReadHistory } from "@/lib/ems-access/account-readers";
import { requireManager } from "@/lib/access/guards";
import { alertBody, alertSubject } from "./compose";
import { sendEmail, type SendOutcome } from "@/lib/mail/send";
import { sendToSlack, SEND_TIMEOUT_MS } from "./senders";
import { slackUrlAad } from "./slack-url";

/**
 * Alerts after a sync (issue 14): who gets them, sending, retries and what Settings shows of them.
 *
 * One AlertDelivery row per alert and destination (an email address, or the team's Slack URL), at
 * most one per sync and destination (the unique index on syncId + channel + recipient). A row is
 * tried at once when it is queued, then by the `alert-delivery` job (lib/jobs/alert-delivery-job.ts)
 * while it is due: after a failed attempt it waits 1 min, 5 min, 30 min, 2 h, and after the fifth
 * it is "failed" with the last reason. A row is claimed before it is sent (FOR UPDATE SKIP LOCKED,
 * and its next attempt pushed past the time a send can take), so two instances, or the job and a
 * cron call, never send it twice; a result is written only by the claim that sent it.
 *
 * The text is the caller's (lib/history writes names, ids, fields and masked values); nothing here
 * adds to it but the subject and the link. The Slack URL is decrypted just before it is used and
 * never logged, stored elsewhere or put in a reason.
 */

export type AlertKind = "changes" | "health" | "both";
export type AlertChannel = "email" | "slack";
export type DeliveryStatus = "pending" | "sent" | "failed";

/** `recipient` of a Slack delivery: the URL itself is on the tracker, encrypted. */
export const SLACK_RECIPIENT = "Slack";
/** Attempts before a delivery is "failed". */
export const MAX_ATTEMPTS = 5;
/** The wait after the 1st, 2nd, 3rd and 4th failed attempt. */
export const RETRY_DELAYS_SECONDS = [60, 5 * 60, 30 * 60, 2 * 60 * 60] as const;
/**
 * A claimed row's next attempt moves this far ahead while it is being sent, so that no other
 * claim takes it meanwhile; far above the longest send (SEND_TIMEOUT_MS), and replaced by the
 * outcome's own time as soon as it is known. A process that dies mid-send leaves the row to be
 * tried again after this.
 */
const CLAIM_LEASE_SECONDS = 5 * 60;
const BATCH_SIZE = 10;
/** `syncId` of a delivery from "Send a test": no sync, and unique per test. */
const TEST_SYNC_PREFIX = "test:";
/** Tests an owner or admin may send per tracker and minute. */
const MAX_TESTS_PER_MINUTE = 5;

export interface QueueAlertsInput {
  trackerId: string;
  teamId: string;
  syncId: string;
  kind: AlertKind;
  subject: string;
  /** Plain lines, no secrets (the caller's duty); the first 50 are sent, then "… and N more". */
  lines: string[];
  /** Absolute URL of the page that shows the rest (the Changes feed or Health). */
  link: string;
}

const PREFERENCE_OF: Record<AlertKind, Prisma.AlertPreferenceWhereInput[]> = {
  changes: [{ emailChanges: true }],
  health: [{ emailHealth: true }],
  both: [{ emailChanges: true }, { emailHealth: true }],
};

/**
 * The team's members who want this kind of alert by email and may read the tracked account's
 * history (lib/history/access.ts: owners, admins, and members whose own credential reads that
 * account; an alert is that history, health findings included). A preference counts for the team
 * it was set in only: someone who moved teams chooses again.
 */
async function emailRecipients(tracker: { teamId: string; accountKey: string }, kind: AlertKind): Promise<string[]> {
  const { teamId } = tracker;
  const members = await prisma.membership.findMany({
    where: { teamId, user: { alertPreference: { teamId, OR: PREFERENCE_OF[kind] } } },
    select: { userId: true, role: true, user: { select: { email: true } } },
    orderBy: { createdAt: "asc" },
  });
  const allowed = await Promise.all(members.map((member) => memberMayReadHistory(member, tracker.accountKey)));
  return members.filter((_, index) => allowed[index]).map((member) => member.user.email);
}

function assertAbsoluteLink(link: string): void {
  let url: URL | null = null;
  try {
    url = new URL(link);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) throw new Error("queueAlerts: `link` must be an absolute http(s) URL");
}

/**
 * Queues an alert for a sync: an email to each member whose preference wants this kind (when
 * SMTP_URL is set) and one Slack message when the tracker has a Slack URL, then tries them at once.
 * Returns how many deliveries it created; calling it again for the same sync creates none (and sends
 * nothing). A failure to send is recorded on the delivery and retried by the job, never thrown.
 * `signal` stops that first send (a job's deadline): what it stops is left pending, uncounted, for the job.
 */
export async function queueAlerts(input: QueueAlertsInput, { signal }: { signal?: AbortSignal } = {}): Promise<number> {
  assertAbsoluteLink(input.link);
  const tracker = await prisma.changeTracker.findUnique({
    where: { id: input.trackerId },
    select: { id: true, teamId: true, accountKey: true, slackUrlCiphertext: true },
  });
  if (!tracker || tracker.teamId !== input.teamId) throw new Error(`queueAlerts: no tracker ${input.trackerId} in team ${input.teamId}`);

  const destinations: { channel: AlertChannel; recipient: string }[] = [];
  if (mailEnv().SMTP_URL) {
    for (const email of await emailRecipients(tracker, input.kind)) destinations.push({ channel: "email", recipient: email });
  }
  if (tracker.slackUrlCiphertext) destinations.push({ channel: "slack", recipient: SLACK_RECIPIENT });
  return queueTo(tracker, destinations, input, signal);
}

export interface QueueMessageInput extends Omit<QueueAlertsInput, "kind"> {
  /** The addresses of the people who asked for it by email (sent only when SMTP_URL is set). */
  emails: readonly string[];
  /** Also to the team's Slack (the tracker's URL), when it has one. */
  slack: boolean;
}

/**
 * Queues one message to the people named and, if asked, the team's Slack, with the same rows,
 * retries and once-only guarantee as a sync's alerts (`syncId` names the occasion: the same one
 * queues nothing again). The inbox (lib/inbox) uses it for the kinds each person chose.
 */
export async function queueMessage(input: QueueMessageInput, { signal }: { signal?: AbortSignal } = {}): Promise<number> {
  assertAbsoluteLink(input.link);
  const tracker = await prisma.changeTracker.findUnique({ where: { id: input.trackerId }, select: { id: true, teamId: true, slackUrlCiphertext: true } });
  if (!tracker || tracker.teamId !== input.teamId) throw new Error(`queueMessage: no tracker ${input.trackerId} in team ${input.teamId}`);
  const destinations: { channel: AlertChannel; recipient: string }[] = [];
  if (mailEnv().SMTP_URL) for (const email of new Set(input.emails)) destinations.push({ channel: "email", recipient: email });
  if (input.slack && tracker.slackUrlCiphertext) destinations.push({ channel: "slack", recipient: SLACK_RECIPIENT });
  return queueTo(tracker, destinations, input, signal);
}

/** The deliveries' rows (none twice for one occasion and destination), then a first attempt at once. */
async function queueTo(
  tracker: { id: string; teamId: string },
  destinations: readonly { channel: AlertChannel; recipient: string }[],
  input: Pick<QueueAlertsInput, "syncId" | "subject" | "lines" | "link">,
  signal: AbortSignal | undefined,
): Promise<number> {
  if (destinations.length === 0) return 0;

  const subject = alertSubject(input.subject);
  const body = alertBody(input);
  const now = new Date();
  const created = await prisma.alertDelivery.createManyAndReturn({
    data: destinations.map(({ channel, recipient }) => ({
      trackerId: tracker.id,
      teamId: tracker.teamId,
      syncId: input.syncId,
      channel,
      recipient,
      subject,
      body,
      nextAttemptAt: now,
    })),
    skipDuplicates: true,
    select: { id: true },
  });
  if (created.length > 0)
    await attemptNow(
      created.map((row) => row.id),
      signal,
    );
  return created.length;
}

/**
 * Tries freshly queued deliveries once, now; whatever fails is left to the job, and so is whatever
 * `signal` stops (released: the attempt does not count). Without a signal, each send's own timeout bounds it.
 */
async function attemptNow(ids: string[], signal: AbortSignal = new AbortController().signal): Promise<void> {
  try {
    const claimed = await claim({ ids, limit: ids.length });
    await Promise.all(claimed.map((row) => deliverClaimed(row, signal)));
  } catch (error) {
    log.error(
      { event: "alerts.attempt_failed", deliveries: ids.length, err: error instanceof Error ? error.message : String(error) },
      "alerts: first attempt failed; the job retries",
    );
  }
}

interface ClaimedDelivery {
  id: string;
  trackerId: string;
  teamId: string;
  channel: string;
  recipient: string;
  subject: string;
  body: string;
  /** Counting this one. */
  attempts: number;
  /** The clock the claim used (the database's, or the `now` given): retries are timed from it. */
  claimedAt: Date;
}

/**
 * Takes up to `limit` pending deliveries for this instance: the given fresh ones (never attempted),
 * or those due at `now` (the database's clock unless given). Rows another transaction holds are
 * skipped, and each taken row counts the attempt and moves its next attempt past the lease, in the
 * same statement: a second claim, here or on another instance, finds it not due.
 */
async function claim({ ids, now, limit }: { ids?: string[]; now?: Date; limit: number }): Promise<ClaimedDelivery[]> {
  const at = now ? now.toISOString() : null;
  const which = ids ? Prisma.sql`"id" = ANY(${ids}::text[]) AND "attempts" = 0` : Prisma.sql`"nextAttemptAt" <= (SELECT "at" FROM clock)`;
  return prisma.$queryRaw<ClaimedDelivery[]>`
    WITH clock AS (SELECT (COALESCE(${at}::timestamptz, now()) AT TIME ZONE 'UTC') AS "at"),
    due AS (
      SELECT "id" FROM "AlertDelivery"
      WHERE "status" = 'pending' AND ${which}
      ORDER BY "nextAttemptAt", "id"
      LIMIT ${limit}::integer
      FOR UPDATE SKIP LOCKED
    )
    UPDATE "AlertDelivery" AS d
    SET "attempts" = d."attempts" + 1, "nextAttemptAt" = clock."at" + ${CLAIM_LEASE_SECONDS}::integer * interval '1 second'
    FROM due, clock
    WHERE d."id" = due."id"
    RETURNING d."id", d."trackerId", d."teamId", d."channel", d."recipient", d."subject", d."body", d."attempts", clock."at" AS "claimedAt"`;
}

type Settled = "sent" | "retrying" | "failed" | "released";

/**
 * `settleClaimed` as a span ("alert delivery": channel, attempt, result; never the recipient, the
 * Slack URL or the text) and counted in alert_deliveries_total by channel and result.
 */
async function deliverClaimed(row: ClaimedDelivery, signal: AbortSignal): Promise<Settled> {
  const channel = row.channel === "email" || row.channel === "slack" ? row.channel : "other";
  return inSpan("alert delivery", { kind: "client", attributes: { "alert.channel": channel, "alert.attempt": row.attempts } }, async (span) => {
    const settled = await settleClaimed(row, signal);
    metrics().alertDeliveries.inc({ channel, result: settled });
    setSpanAttributes(span, { "alert.result": settled });
    return settled;
  });
}

/** Sends one claimed delivery and writes what came of it (only if the row is still this claim's). */
async function settleClaimed(row: ClaimedDelivery, signal: AbortSignal): Promise<Settled> {
  let outcome: SendOutcome;
  try {
    outcome = await send(row, signal);
  } catch (error) {
    // A database error while reading the tracker, or a bug: retried like any failure, and logged.
    log.error({ event: "alerts.send_error", delivery: row.id, err: error instanceof Error ? error.name : "error" }, "alerts: a delivery could not be attempted");
    outcome = { ok: false, reason: "the portal could not attempt it (an internal error; see the server log)" };
  }
  const mine = { id: row.id, status: "pending", attempts: row.attempts };
  if (outcome.ok) {
    await prisma.alertDelivery.updateMany({ where: mine, data: { status: "sent", sentAt: new Date(), lastError: null } });
    log.info({ event: "alerts.sent", delivery: row.id, channel: row.channel, attempts: row.attempts }, "alert sent");
    return "sent";
  }
  if (signal.aborted) {
    // Stopped by a shutdown, not by the destination: the attempt does not count.
    await prisma.alertDelivery.updateMany({ where: mine, data: { attempts: row.attempts - 1, nextAttemptAt: row.claimedAt } });
    return "released";
  }
  const last = outcome.permanent || row.attempts >= MAX_ATTEMPTS;
  const delay = RETRY_DELAYS_SECONDS[Math.min(row.attempts, RETRY_DELAYS_SECONDS.length) - 1]!;
  await prisma.alertDelivery.updateMany({
    where: mine,
    data: last ? { status: "failed", lastError: outcome.reason } : { lastError: outcome.reason, nextAttemptAt: new Date(row.claimedAt.getTime() + delay * 1000) },
  });
  log.warn(
    { event: last ? "alerts.failed" : "alerts.retrying", delivery: row.id, channel: row.channel, attempts: row.attempts, reason: outcome.reason },
    "alert not sent",
  );
  return last ? "failed" : "retrying";
}

async function send(row: ClaimedDelivery, signal: AbortSignal): Promise<SendOutcome> {
  if (row.channel === "slack") {
    const tracker = await prisma.changeTracker.findUnique({ where: { id: row.trackerId }, select: { slackUrlCiphertext: true } });
    if (!tracker?.slackUrlCiphertext) return { ok: false, reason: "no Slack URL is set any more", permanent: true };
    let url: string;
    try {
      url = decryptSecret(tracker.slackUrlCiphertext, slackUrlAad(row.trackerId));
    } catch (error) {
      if (!(error instanceof DecryptionError)) throw error;
      return { ok: false, reason: "the saved Slack URL cannot be decrypted (its key is gone): set it again", permanent: true };
    }
    return sendToSlack(url, row.body, signal);
  }
  if (row.channel === "email") {
    // Only to someone still in the team: a person who left meanwhile gets none of its alerts.
    const member = await prisma.membership.findFirst({ where: { teamId: row.teamId, user: { email: row.recipient } }, select: { userId: true, role: true } });
    if (!member) return { ok: false, reason: "the recipient is no longer a member of the team", permanent: true };
    // And only to someone who may still read the account's history (retries go on for hours: the
    // credential may have been removed or replaced, the role lowered, since it was queued).
    const tracker = await prisma.changeTracker.findUnique({ where: { id: row.trackerId }, select: { accountKey: true } });
    if (!tracker) return { ok: false, reason: "the change tracker no longer exists", permanent: true };
    if (!(await memberMayReadHistory(member, tracker.accountKey))) {
      return { ok: false, reason: "the recipient may no longer read this account's change history", permanent: true };
    }
    return sendEmail({ to: row.recipient, subject: row.subject, text: row.body }, mailEnv(), signal);
  }
  return { ok: false, reason: `unknown channel "${row.channel.slice(0, 20)}"`, permanent: true };
}

export interface DeliverDueOptions {
  /** Stops after the current batch (the job engine stopping): what is in flight is sent or released. */
  signal: AbortSignal;
  /** Epoch ms: no new batch starts when a send could run past it (a serverless function's limit). */
  deadline?: number;
  /** Tests: the time to judge "due" by and to time retries from (default: the database's clock). */
  now?: Date;
}

export interface DeliverDueResult {
  sent: number;
  retrying: number;
  failed: number;
}

/** Sends every due pending delivery, batch by batch: the `alert-delivery` job. Safe to run on several instances at once. */
export async function deliverDue({ signal, deadline, now }: DeliverDueOptions): Promise<DeliverDueResult> {
  const result: DeliverDueResult = { sent: 0, retrying: 0, failed: 0 };
  while (!signal.aborted && (deadline === undefined || Date.now() + SEND_TIMEOUT_MS < deadline)) {
    const claimed = await claim({ now, limit: BATCH_SIZE });
    for (const settled of await Promise.all(claimed.map((row) => deliverClaimed(row, signal)))) {
      if (settled !== "released") result[settled] += 1;
    }
    if (claimed.length < BATCH_SIZE) break;
  }
  return result;
}

export interface DeliveryRecord {
  id: string;
  channel: AlertChannel;
  /** The email address, or "Slack". */
  recipient: string;
  subject: string;
  status: DeliveryStatus;
  attempts: number;
  /** The last failure's reason, in words. */
  lastError: string | null;
  createdAt: Date;
  sentAt: Date | null;
  /** For a pending one: when it is tried next. */
  nextAttemptAt: Date;
  /** Sent with "Send a test", not after a sync. */
  test: boolean;
}

/** The newest deliveries of a tracker of the actor's team (any member: Settings lists them). */
export async function recentDeliveries(actor: Pick<Actor, "teamId">, trackerId: string, limit = 10): Promise<DeliveryRecord[]> {
  const tracker = await prisma.changeTracker.findFirst({ where: { id: trackerId, teamId: actor.teamId }, select: { id: true } });
  if (!tracker) throw new NotFoundError("That change tracker no longer exists.");
  const rows = await prisma.alertDelivery.findMany({
    where: { trackerId: tracker.id },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: Math.min(100, Math.max(1, Math.floor(limit))),
    select: {
      id: true,
      channel: true,
      recipient: true,
      subject: true,
      status: true,
      attempts: true,
      lastError: true,
      createdAt: true,
      sentAt: true,
      nextAttemptAt: true,
      syncId: true,
    },
  });
  return rows.map(({ syncId, ...row }) => ({
    ...row,
    channel: row.channel as AlertChannel,
    status: row.status as DeliveryStatus,
    test: syncId.startsWith(TEST_SYNC_PREFIX),
  }));
}

export interface TestAlertResult {
  channel: AlertChannel;
  recipient: string;
  status: DeliveryStatus;
  lastError: string | null;
}

/**
 * Owners and admins: one alert with a fixed text to the team's Slack URL or to the actor's own
 * address, tried at once like any alert and listed with them (its `syncId` is "test:<uuid>": it
 * belongs to no sync, and each test is a delivery of its own).
 */
export async function sendTestAlert(actor: Actor, input: { trackerId: string; channel: AlertChannel }, link: string): Promise<TestAlertResult> {
  assertAbsoluteLink(link);
  const delivery = await prisma.$transaction(async (tx) => {
    await requireManager(tx, actor);
    const tracker = await tx.changeTracker.findFirst({
      where: { id: input.trackerId, teamId: actor.teamId },
      select: { id: true, teamId: true, slackUrlCiphertext: true },
    });
    if (!tracker) throw new NotFoundError("That change tracker no longer exists.");
    if (input.channel === "slack" && !tracker.slackUrlCiphertext) throw new SafeError("No Slack URL is set: save one first.", "no_slack_url");
    if (input.channel === "email" && !mailEnv().SMTP_URL) throw new SafeError("Email is off on this deployment (SMTP_URL is not set).", "email_off");
    const recent = await tx.alertDelivery.count({
      where: { trackerId: tracker.id, syncId: { startsWith: TEST_SYNC_PREFIX }, createdAt: { gt: new Date(Date.now() - 60_000) } },
    });
    if (recent >= MAX_TESTS_PER_MINUTE) throw new SafeError("That is enough tests for a minute; wait a little and try again.", "too_many_tests");
    const subject = "Test alert from EMS Portal";
    return tx.alertDelivery.create({
      data: {
        trackerId: tracker.id,
        teamId: tracker.teamId,
        syncId: `${TEST_SYNC_PREFIX}${randomUUID()}`,
        channel: input.channel,
        recipient: input.channel === "slack" ? SLACK_RECIPIENT : actor.email,
        subject,
        body: alertBody({
          subject,
          lines: [
            `${actor.name} sent this test from Settings to check that ${actor.teamName}'s alerts arrive here.`,
            "Real alerts list what changed in your webhook setup after a sync, and health checks that started failing.",
          ],
          link,
        }),
        nextAttemptAt: new Date(),
      },
      select: { id: true },
    });
  });
  await attemptNow([delivery.id]);
  const row = await prisma.alertDelivery.findUniqueOrThrow({ where: { id: delivery.id }, select: { channel: true, recipient: true, status: true, lastError: true } });
  return { channel: row.channel as AlertChannel, recipient: row.recipient, status: row.status as DeliveryStatus, lastError: row.lastError };
}
