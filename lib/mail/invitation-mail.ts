import "server-only";
import nodemailer from "nodemailer";

export interface InvitationMail {
  to: string;
  teamName: string;
  inviterName: string;
  role: "OWNER" | "ADMIN" | "MEMBER";
  link: string;
  expiresAt: Date;
}

const ROLE_WORDS = { OWNER: "an owner", ADMIN: "an admin", MEMBER: "a member" } as const;

/** Mail is optional: it is on only when SMTP_URL names a server (smtp:// or smtps://). */
export function isMailConfigured(env: Record<string, string | undefined> = process.env): boolean {
  return Boolean(env.SMTP_URL);
}

/**
 * Sends an invitation link when SMTP is configured. Returns whether it was sent; a mail failure is
 * logged (without the link, which is a credential) and never fails the invitation: the page still
 * shows the link to copy.
 */
export async function mailInvitation(mail: InvitationMail, env: Record<string, string | undefined> = process.env): Promise<boolean> {
  if (!isMailConfigured(env)) return false;
  try {
    const transport = nodemailer.createTransport(env.SMTP_URL);
    await transport.sendMail({
      from: env.SMTP_FROM || "EMS Portal <no-reply@localhost>",
      to: mail.to,
      subject: `${mail.inviterName} invited you to ${mail.teamName} on EMS Portal`,
      text: [
        `${mail.inviterName} invited you to join ${mail.teamName} on EMS Portal as ${ROLE_WORDS[mail.role]}.`,
        "",
        `Accept the invitation: ${mail.link}`,
        "",
        `The link works once and expires on ${mail.expiresAt.toUTCString()}.`,
      ].join("\n"),
    });
    transport.close();
    return true;
  } catch (error) {
    console.error(JSON.stringify({ level: "error", msg: "invitation mail failed", to: mail.to, error: error instanceof Error ? error.message : String(error) }));
    return false;
  }
}
