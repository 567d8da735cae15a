import "server-only";
import { mailEnv, type MailEnv } from "@/lib/env";
import { log } from "@/lib/log";
import { ROLE_LABELS, type TeamRole } from "@/lib/access/roles";
import { sendEmail } from "@/lib/mail/send";

export interface InvitationMail {
  to: string;
  teamName: string;
  inviterName: string;
  role: TeamRole;
  link: string;
  expiresAt: Date;
}

/** "an admin", "a member". */
function roleWithArticle(role: TeamRole): string {
  const label = ROLE_LABELS[role].toLowerCase();
  return `${/^[aeiou]/.test(label) ? "an" : "a"} ${label}`;
}

/**
 * Sends an invitation link when SMTP is configured (SMTP_URL; mail is optional), through the one
 * mailer (lib/mail/send.ts: timeouts, the outbound door's rules). Returns whether it was sent; a
 * failure is logged with its reason only (never the link, which is a credential, nor the address)
 * and never fails the invitation: the page still shows the link to copy.
 */
export async function mailInvitation(mail: InvitationMail, settings: MailEnv = mailEnv()): Promise<boolean> {
  if (!settings.SMTP_URL) return false;
  const outcome = await sendEmail(
    {
      to: mail.to,
      subject: `${mail.inviterName} invited you to ${mail.teamName} on EMS Portal`,
      text: [
        `${mail.inviterName} invited you to join ${mail.teamName} on EMS Portal as ${roleWithArticle(mail.role)}.`,
        "",
        `Accept the invitation: ${mail.link}`,
        "",
        `The link works once and expires on ${mail.expiresAt.toUTCString()}.`,
      ].join("\n"),
    },
    settings,
    // Inside a server action: each step of the send has its own timeout (MAIL_TIMEOUT_MS).
    new AbortController().signal,
  );
  if (!outcome.ok) log.error({ event: "mail.invitation_failed", reason: outcome.reason }, "invitation mail not sent");
  return outcome.ok;
}
