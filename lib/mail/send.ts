import "server-only";
import { isIP, isIPv4 } from "node:net";
import nodemailer from "nodemailer";
import { parseConnectionUrl } from "nodemailer/lib/shared";
import SMTPTransport from "nodemailer/lib/smtp-transport";
import { mailDestinationPolicy } from "@/lib/ems/destination";
import { BlockedDestinationError } from "@/lib/ems/errors";
import { admitMailServer } from "@/lib/ems/outbound";
import type { MailEnv } from "@/lib/env";

/**
 * The one way the portal sends mail (invitations, alerts): SMTP_URL's server with timeouts, through
 * the outbound door's rules (lib/ems/outbound.ts `admitMailServer`: the server checked, its name
 * resolved once, the connection made to the checked address), answering an outcome instead of
 * throwing, and never a reason that quotes the server, the address or the text. The only module
 * that opens an SMTP connection (a lint rule in eslint.config.mjs keeps it so).
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
 * Options of SMTP_URL's query that would send mail somewhere else than its host and port: a proxy,
 * a well-known service's host, or a host or port of their own. nodemailer honours them all.
 */
const ELSEWHERE_OPTIONS = ["proxy", "service", "host", "port", "direct", "socketPath"] as const;

class MailServerRefusedError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "MailServerRefusedError";
  }
}

/**
 * SMTP_URL's settings (login, TLS options, the query's other options) with the connection pointed at
 * the address the door checked; the host name stays the TLS server name, so the certificate is
 * checked against it as before.
 */
async function checkedServer(smtpUrl: string, signal: AbortSignal): Promise<SMTPTransport.Options> {
  const url = new URL(smtpUrl);
  const query = new URLSearchParams(url.search);
  const elsewhere = ELSEWHERE_OPTIONS.find((option) => query.has(option));
  if (elsewhere) throw new MailServerRefusedError(`SMTP_URL's "${elsewhere}" option would send mail past its own server, which the portal does not do`);
  const addresses = await admitMailServer(url, mailDestinationPolicy(smtpUrl), signal);
  // IPv4 first, as nodemailer's own resolution does: many hosts have no IPv6 route out.
  const address = addresses.find((candidate) => isIPv4(candidate)) ?? addresses[0]!;
  const options = parseConnectionUrl(smtpUrl) as SMTPTransport.Options;
  const name = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return { ...options, host: address, ...(isIP(name) ? {} : { servername: name }) };
}

/** Why the server could not be admitted, in words safe for a delivery list. */
function refusalReason(error: unknown): SendOutcome | null {
  if (error instanceof MailServerRefusedError) return { ok: false, reason: error.reason, permanent: true };
  if (error instanceof BlockedDestinationError) {
    const why = error.reason === "private-address" ? "it points to a private or reserved address" : "the portal may not connect there";
    return { ok: false, reason: `the portal refused the mail server: ${why}`, permanent: true };
  }
  const code = (error as { code?: unknown }).code;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return { ok: false, reason: "the mail server's host name did not resolve" };
  return null;
}

/**
 * One plain-text mail through SMTP_URL. A refusal is told by the server's reply code
 * ("the mail server answered 550"); the server's own words are left out (they may quote anything).
 */
export async function sendEmail(mail: PlainMail, settings: MailEnv, signal: AbortSignal): Promise<SendOutcome> {
  if (!settings.SMTP_URL) return { ok: false, reason: "email is off on this deployment (SMTP_URL is not set)", permanent: true };
  if (signal.aborted) return { ok: false, reason: "stopped before it was sent (the server was shutting down)" };
  let server: SMTPTransport.Options;
  try {
    server = await checkedServer(settings.SMTP_URL, AbortSignal.any([signal, AbortSignal.timeout(MAIL_TIMEOUT_MS)]));
  } catch (error) {
    const refused = refusalReason(error);
    if (refused) return refused;
    if (signal.aborted) return { ok: false, reason: "stopped before it was sent (the server was shutting down)" };
    if (error instanceof DOMException && error.name === "TimeoutError") return { ok: false, reason: "the mail server's host name did not resolve in time" };
    return { ok: false, reason: `the mail server could not be checked (${error instanceof Error ? error.name : "error"})` };
  }
  const transport = nodemailer.createTransport(
    new SMTPTransport({ ...server, connectionTimeout: MAIL_TIMEOUT_MS, greetingTimeout: MAIL_TIMEOUT_MS, socketTimeout: MAIL_TIMEOUT_MS }),
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
