import "server-only";
import nodemailer from "nodemailer";
import SMTPTransport from "nodemailer/lib/smtp-transport";
import { alertDestinationPolicy } from "@/lib/ems/destination";
import { BlockedDestinationError, InvalidResponseError, RedirectRefusedError } from "@/lib/ems/errors";
import { outboundRequest } from "@/lib/ems/outbound";
import type { MailEnv } from "@/lib/env";
import { slackText } from "./compose";
import { withoutSlackUrl } from "./slack-url";

/**
 * Sending one alert to one destination. Each answers an outcome, never throws for a failure of the
 * destination: `reason` is a short sentence for the delivery list (`AlertDelivery.lastError`) and the
 * logs, never holding the Slack URL, a header value or SMTP credentials; `permanent` when trying
 * again cannot help (the address is refused by the policy), so the delivery fails at once.
 */
export type SendOutcome = { ok: true } | { ok: false; reason: string; permanent?: boolean };

/** One attempt may take this long (connection, TLS, answer); the next attempt is minutes away. */
export const SEND_TIMEOUT_MS = 10_000;

const MAX_REASON_LENGTH = 200;

function short(reason: string): string {
  return reason.length > MAX_REASON_LENGTH ? `${reason.slice(0, MAX_REASON_LENGTH - 1)}…` : reason;
}

/** A network error in words: its code only (its message may name the address, the path, anything). */
function networkReason(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "its host name did not resolve";
  if (code === "ECONNREFUSED") return "the connection was refused";
  if (code === "ECONNRESET") return "the connection was reset";
  if (typeof code === "string" && /^[A-Z0-9_]{2,40}$/.test(code)) return `the connection failed (${code})`;
  return "the connection failed";
}

/**
 * POST `{ "text": … }` to a Slack-compatible incoming webhook, through the outbound door with the
 * alert policy (HTTPS, public addresses, no redirects). A 2xx answer is sent; anything else fails
 * with its status, and Slack's short error code when it gave one ("answered 404 (no_service)").
 */
export async function sendToSlack(url: string, body: string, signal: AbortSignal): Promise<SendOutcome> {
  const timeout = AbortSignal.any([signal, AbortSignal.timeout(SEND_TIMEOUT_MS)]);
  try {
    const response = await outboundRequest({
      method: "POST",
      url,
      headers: { "Content-Type": "application/json; charset=utf-8", "User-Agent": "EMS-Portal-Alerts" },
      body: JSON.stringify({ text: slackText(body) }),
      signal: timeout,
      policy: alertDestinationPolicy(),
    });
    if (response.status >= 200 && response.status < 300) return { ok: true };
    const code = response.bodyText.trim();
    const said = /^[a-z_]{2,60}$/.test(code) ? ` (${code})` : "";
    return { ok: false, reason: short(withoutSlackUrl(`answered ${response.status}${said}`, url)) };
  } catch (error) {
    if (error instanceof BlockedDestinationError) {
      const why = error.reason === "http-not-allowed" ? "it is not HTTPS" : error.reason === "private-address" ? "it points to a private or reserved address" : "the portal may not connect there";
      return { ok: false, reason: `the portal refused the Slack URL: ${why}`, permanent: true };
    }
    if (error instanceof RedirectRefusedError) return { ok: false, reason: `answered ${error.status} (a redirect, which the portal does not follow)` };
    if (error instanceof InvalidResponseError) return { ok: false, reason: "sent an answer the portal could not read" };
    if (timeout.aborted && !signal.aborted) return { ok: false, reason: `did not answer within ${SEND_TIMEOUT_MS / 1000} s` };
    if (signal.aborted) return { ok: false, reason: "stopped before it was sent (the server was shutting down)" };
    return { ok: false, reason: short(withoutSlackUrl(networkReason(error), url)) };
  }
}

export interface AlertMail {
  to: string;
  subject: string;
  text: string;
}

/**
 * One plain-text mail through SMTP_URL. A refusal is told by the server's reply code
 * ("the mail server answered 550"); the server's own words are left out (they may quote anything).
 */
export async function sendEmail(mail: AlertMail, settings: MailEnv, signal: AbortSignal): Promise<SendOutcome> {
  if (!settings.SMTP_URL) return { ok: false, reason: "email is off on this deployment (SMTP_URL is not set)", permanent: true };
  if (signal.aborted) return { ok: false, reason: "stopped before it was sent (the server was shutting down)" };
  // The URL's own settings (host, port, login, query options) with this module's timeouts on top:
  // nodemailer's createTransport(url) would take no other option.
  const transport = nodemailer.createTransport(
    new SMTPTransport({ url: settings.SMTP_URL, connectionTimeout: SEND_TIMEOUT_MS, greetingTimeout: SEND_TIMEOUT_MS, socketTimeout: SEND_TIMEOUT_MS }),
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
