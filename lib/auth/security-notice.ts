import "server-only";
import { mailEnv, type MailEnv } from "@/lib/env";
import { log } from "@/lib/log";
import { sendEmail } from "@/lib/mail/send";
import type { Actor } from "@/lib/access/actor";

/**
 * The mail a person gets when someone changed who controls their account (when mail is configured):
 * if it was not them, this is how they learn that a cookie of theirs is in other hands while they
 * can still act. Sent to the account's own address, never to anyone else; a failure is logged
 * without the address and never fails the change itself.
 */

export type SecurityNoticeKind = "two-factor-on" | "two-factor-off" | "recovery-codes" | "other-sessions-ended" | "session-ended";

const WHAT: Record<SecurityNoticeKind, { subject: string; line: string }> = {
  "two-factor-on": {
    subject: "Two-factor sign-in was turned on for your EMS Portal account",
    line: "Two-factor sign-in was turned on for your account. Your other sessions were signed out.",
  },
  "two-factor-off": { subject: "Two-factor sign-in was turned off for your EMS Portal account", line: "Two-factor sign-in was turned off for your account." },
  "recovery-codes": {
    subject: "New recovery codes were made for your EMS Portal account",
    line: "New two-factor recovery codes were made for your account; the old ones no longer work.",
  },
  "other-sessions-ended": { subject: "Your other EMS Portal sessions were signed out", line: "All your other sessions were signed out." },
  "session-ended": { subject: "One of your EMS Portal sessions was signed out", line: "One of your other sessions was signed out." },
};

export function securityNoticeText(kind: SecurityNoticeKind, meta: { ip: string; at: Date }): { subject: string; text: string } {
  const { subject, line } = WHAT[kind];
  return {
    subject,
    text: [
      line,
      "",
      `When: ${meta.at.toUTCString()}`,
      `From the address: ${meta.ip}`,
      "",
      "If this was you, there is nothing to do.",
      "If it was not, sign in now, change your password (that ends every session) and check two-factor sign-in in your account settings.",
    ].join("\n"),
  };
}

/** Mails the notice to the actor's own address when SMTP is configured; answers whether it was sent. */
export async function sendSecurityNotice(
  actor: Pick<Actor, "email" | "userId">,
  kind: SecurityNoticeKind,
  meta: { ip: string },
  settings: MailEnv = mailEnv(),
): Promise<boolean> {
  if (!settings.SMTP_URL) return false;
  const outcome = await sendEmail({ to: actor.email, ...securityNoticeText(kind, { ip: meta.ip, at: new Date() }) }, settings, AbortSignal.timeout(15_000));
  if (!outcome.ok) log.warn({ event: "mail.security_notice_failed", kind, userId: actor.userId, reason: outcome.reason }, "security notice not sent");
  return outcome.ok;
}
