import "server-only";
import nodemailer from "nodemailer";
import SMTPTransport from "nodemailer/lib/smtp-transport";
import type { MailEnv } from "@/lib/env";

/**
 * The one way the portal sends mail (alerts, security notices): SMTP_URL's server with timeouts,
 * answering an outcome instead of throwing, and never a reason that quotes the server, the address
 * or the text.
 */

/** How a send went: `reason` is a short sentence safe for logs and pages; `permanent` when retrying cannot help. */
export type SendOutcome = { ok: true } | { ok: false; reason: string; permanent?: boolean };

/** One attempt may take this long (connection, TLS, answer). */
export const MAIL_TIMEOUT_MS = 10_000;

export interface PlainMail {
  to: string;
  subject: string;
  text: string;
}

/**
 * One plain-text mail through SMTP_URL. A refusal is told by the server's reply code
 * ("the mail server answered 550"); the server's own words are left out (they may quote anything).
 */
export async function sendEmail(mail: PlainMail, settings: MailEnv, signal: AbortSignal): Promise<SendOutcome> {
  if (!settings.SMTP_URL) return { ok: false, reason: "email is off on this deployment (SMTP_URL is not set)", permanent: true };
  if (signal.aborted) return { ok: false, reason: "stopped before it was sent (the server was shutting down)" };
  // The URL's own settings (host, port, login, query options) with this module's timeouts on top:
  // nodemailer's createTransport(url) would take no other option.
  const transport = nodemailer.createTransport(
    new SMTPTransport({ url: settings.SMTP_URL, connectionTimeout: MAIL_TIMEOUT_MS, greetingTimeout: MAIL_TIMEOUT_MS, socketTimeout: MAIL_TIMEOUT_MS }),
  );
  const abort = () => transport.close();
  signal.addEventListener("abort", abort, { once: true });
  try {
    await transport.sendMail({ from: settings.SMTP_FROM, to: mail.to, subject: mail.subject, text: mail.text });
    return { ok: true };
  } catch (error) {
    const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
    if (typeof responseCode === "number") return { ok: false, reason: `the mail server answered ${responseCode}` };
    if (code === "EAUTH") return { ok: false, reason: "the mail server refused the portal's login" };
    if (code === "ETIMEDOUT") return { ok: false, reason: "the mail server did not answer in time" };
    return { ok: false, reason: `could not reach the mail server (${typeof code === "string" && /^[A-Z0-9_]{2,40}$/.test(code) ? code : "error"})` };
  } finally {
    signal.removeEventListener("abort", abort);
    transport.close();
  }
}
