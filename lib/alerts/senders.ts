import "server-only";
import { alertDestinationPolicy } from "@/lib/ems/destination";
import { BlockedDestinationError, InvalidResponseError, RedirectRefusedError } from "@/lib/ems/errors";
import { outboundRequest } from "@/lib/ems/outbound";
import { MAIL_TIMEOUT_MS, type SendOutcome } from "@/lib/mail/send";
import { slackText } from "./compose";
import { withoutSlackUrl } from "./slack-url";

/**
 * Sending one alert to one destination. Each answers an outcome, never throws for a failure of the
 * destination: `reason` is a short sentence for the delivery list (`AlertDelivery.lastError`) and the
 * logs, never holding the Slack URL, a header value or SMTP credentials; `permanent` when trying
 * again cannot help (the address is refused by the policy), so the delivery fails at once.
 */

/** One attempt may take this long (connection, TLS, answer); the next attempt is minutes away. */
export const SEND_TIMEOUT_MS = MAIL_TIMEOUT_MS;

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
      const why =
        error.reason === "http-not-allowed"
          ? "it is not HTTPS"
          : error.reason === "private-address"
            ? "it points to a private or reserved address"
            : "the portal may not connect there";
      return { ok: false, reason: `the portal refused the Slack URL: ${why}`, permanent: true };
    }
    if (error instanceof RedirectRefusedError) return { ok: false, reason: `answered ${error.status} (a redirect, which the portal does not follow)` };
    if (error instanceof InvalidResponseError) return { ok: false, reason: "sent an answer the portal could not read" };
    if (timeout.aborted && !signal.aborted) return { ok: false, reason: `did not answer within ${SEND_TIMEOUT_MS / 1000} s` };
    if (signal.aborted) return { ok: false, reason: "stopped before it was sent (the server was shutting down)" };
    return { ok: false, reason: short(withoutSlackUrl(networkReason(error), url)) };
  }
}
