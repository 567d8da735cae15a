import "server-only";
import nodemailer from "nodemailer";
import { mailEnv, type MailEnv } from "@/lib/env";
import { log } from "@/lib/log";
import { ROLE_LABELS, type TeamRole } from "@/lib/access/roles";

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
 * Sends an invitation link when SMTP is configured (SMTP_URL; mail is optional). Returns whether it
 * was sent; a mail failure is logged (without the link, which is a credential) and never fails the
 * invitation: the page still shows the link to copy.
 */
export async function mailInvitation(mail: InvitationMail, settings: MailEnv = mailEnv()): Promise<boolean> {
  if (!settings.SMTP_URL) return false;
  try {
    const transport = nodemailer.createTransport(settings.SMTP_URL);
    await transport.sendMail({
      from: settings.SMTP_FROM,
      to: mail.to,
      subject: `${mail.inviterName} invited you to ${mail.teamName} on EMS Portal`,
      text: [
        `${mail.inviterName} invited you to join ${mail.teamName} on EMS Portal as ${roleWithArticle(mail.role)}.`,
        "",
        `Accept the invitation: ${mail.link}`,
        "",
        `The link works once and expires on ${mail.expiresAt.toUTCString()}.`,
      ].join("\n"),
    });
    transport.close();
    return true;
  } catch (error) {
    log.error({ event: "mail.invitation_failed", to: mail.to, err: error instanceof Error ? error.message : String(error) }, "invitation mail failed");
    return false;
  }
}
