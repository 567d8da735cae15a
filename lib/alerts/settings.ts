import "server-only";
import type { Actor } from "@/lib/access/actor";
import { auditByActor } from "@/lib/audit/log";
import { encryptSecret } from "@/lib/crypto";
import { prisma, type TransactionClient } from "@/lib/db/prisma";
import { mailEnv } from "@/lib/env";
import { FieldError, ForbiddenError, NotFoundError } from "@/lib/errors";
import { log } from "@/lib/log";
import { currentRole, type RequestContext } from "@/lib/access/guards";
import { checkSlackUrl, slackUrlAad, slackUrlRefusalAfterDns } from "./slack-url";

/**
 * Who hears about what: each person's own email preferences, and the team's Slack URL (owners only).
 * The tracker is always found by its id *and* the actor's team: another team's id is "not found",
 * exactly like an id that does not exist.
 */

export interface AlertPreferences {
  emailChanges: boolean;
  emailHealth: boolean;
}

/** Whether this deployment can send email at all (SMTP_URL): the preferences say so when it cannot. */
export function emailAlertsAvailable(): boolean {
  return Boolean(mailEnv().SMTP_URL);
}

/** The actor's own preferences in their current team (none chosen yet: nothing). */
export async function getAlertPreferences(actor: Pick<Actor, "userId" | "teamId">): Promise<AlertPreferences> {
  const row = await prisma.alertPreference.findUnique({ where: { userId: actor.userId }, select: { teamId: true, emailChanges: true, emailHealth: true } });
  if (!row || row.teamId !== actor.teamId) return { emailChanges: false, emailHealth: false };
  return { emailChanges: row.emailChanges, emailHealth: row.emailHealth };
}

/** Any member: their own choice of alert emails, for their current team. */
export async function setAlertPreferences(actor: Actor, preferences: AlertPreferences): Promise<AlertPreferences> {
  return prisma.$transaction(async (tx) => {
    await currentRole(tx, actor);
    const data = { teamId: actor.teamId, emailChanges: preferences.emailChanges, emailHealth: preferences.emailHealth };
    const row = await tx.alertPreference.upsert({
      where: { userId: actor.userId },
      create: { userId: actor.userId, ...data },
      update: data,
      select: { emailChanges: true, emailHealth: true },
    });
    return row;
  });
}

const OWNERS_ONLY = "Only owners can change where the team's alerts go.";

/** The tracker of the actor's team, for an owner; refuses anyone else. */
async function trackerForOwner(tx: TransactionClient, actor: Actor, trackerId: string): Promise<{ id: string; slackUrlLabel: string | null; hasSlackUrl: boolean }> {
  if ((await currentRole(tx, actor)) !== "OWNER") throw new ForbiddenError(OWNERS_ONLY);
  const tracker = await tx.changeTracker.findFirst({
    where: { id: trackerId, teamId: actor.teamId },
    select: { id: true, slackUrlLabel: true, slackUrlCiphertext: true },
  });
  if (!tracker) throw new NotFoundError("That change tracker no longer exists.");
  return { id: tracker.id, slackUrlLabel: tracker.slackUrlLabel, hasSlackUrl: tracker.slackUrlCiphertext !== null };
}

export interface SlackUrlChange {
  /** What Settings shows of the URL now (scheme and host); null once cleared. */
  label: string | null;
  /** False when clearing found nothing to clear. */
  changed: boolean;
}

/**
 * Owners: sets the tracker's Slack-compatible webhook URL (HTTPS, a public host, also after DNS;
 * stored encrypted, bound to the tracker row), or clears it with `url` null or "". Audited without
 * the URL (`alerts.slack_url_set` / `alerts.slack_url_cleared`, with the label only).
 */
export async function setSlackUrl(actor: Actor, input: { trackerId: string; url: string | null }, context: RequestContext = {}): Promise<SlackUrlChange> {
  const wanted = input.url?.trim() ? input.url : null;
  const checked = wanted === null ? null : checkSlackUrl(wanted);
  if (checked && !checked.ok) throw new FieldError("url", checked.message, "invalid_slack_url");
  // Who may, before the DNS look-up (a member's or a stranger's request costs no resolution).
  await prisma.$transaction((tx) => trackerForOwner(tx, actor, input.trackerId));
  if (checked) {
    const refusal = await slackUrlRefusalAfterDns(checked.url);
    if (refusal) {
      log.warn({ event: "alerts.slack_url_refused", teamId: actor.teamId, origin: checked.label }, "Slack URL refused after DNS");
      throw new FieldError("url", refusal, "invalid_slack_url");
    }
  }
  return prisma.$transaction(async (tx) => {
    const tracker = await trackerForOwner(tx, actor, input.trackerId);
    if (!checked) {
      if (!tracker.hasSlackUrl) return { label: null, changed: false };
      await tx.changeTracker.update({ where: { id: tracker.id }, data: { slackUrlCiphertext: null, slackUrlLabel: null } });
      await auditByActor(actor, { action: "alerts.slack_url_cleared", target: tracker.id, ip: context.ip ?? null, metadata: { label: tracker.slackUrlLabel } }, tx);
      return { label: null, changed: true };
    }
    await tx.changeTracker.update({
      where: { id: tracker.id },
      data: { slackUrlCiphertext: encryptSecret(checked.url, slackUrlAad(tracker.id)), slackUrlLabel: checked.label },
    });
    await auditByActor(
      actor,
      { action: "alerts.slack_url_set", target: tracker.id, ip: context.ip ?? null, metadata: { label: checked.label, replaced: tracker.hasSlackUrl } },
      tx,
    );
    return { label: checked.label, changed: true };
  });
}
