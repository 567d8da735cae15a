import "server-only";
import { secretAad } from "@/lib/crypto";
import { alertDestinationPolicy, checkDestination, type DestinationPolicy, type RefusalReason } from "@/lib/ems/destination";
import { refusalForBaseUrl } from "@/lib/ems/outbound";

/**
 * A team's Slack-compatible incoming-webhook URL. The URL is a credential (its path is the token
 * that lets anyone post to the channel): it is stored encrypted on the tracker row, bound to that
 * row, and shown, logged and audited only as its label (scheme and host).
 */

export const SLACK_URL_MAX_LENGTH = 500;

/** The associated data of a tracker's Slack URL ciphertext: it decrypts on that row only. */
export function slackUrlAad(trackerId: string): string {
  return secretAad("ChangeTracker", trackerId, "slackUrl");
}

/** What Settings, the delivery list and the audit log show of it: `https://hooks.slack.com`. */
export function slackUrlLabel(url: URL): string {
  return url.origin;
}

const MESSAGES: Record<RefusalReason | "not-a-url" | "credentials" | "too-long", string> = {
  "not-a-url": "Enter the whole webhook URL, starting with https://.",
  "too-long": `That URL is longer than ${SLACK_URL_MAX_LENGTH} characters; no webhook URL is that long.`,
  credentials: "The URL must not contain a user name or password.",
  "http-not-allowed": "The webhook URL must use HTTPS (https://…).",
  "private-address": "That URL points to a private network address (or a reserved one); alerts are only sent to public hosts.",
  // Not produced by the alert policy (no host list, no sandbox), kept for completeness.
  "host-not-allowed": "The portal may not send alerts to that host.",
  "sandbox-path-only": "The portal may not send alerts to its own address.",
};

export type SlackUrlCheck = { ok: true; url: string; label: string } | { ok: false; message: string };

/** The URL's form and the destination policy, without DNS: what the settings form's schema checks. */
export function checkSlackUrl(input: string, policy: DestinationPolicy = alertDestinationPolicy()): SlackUrlCheck {
  const text = input.trim();
  if (text.length > SLACK_URL_MAX_LENGTH) return { ok: false, message: MESSAGES["too-long"] };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: MESSAGES["not-a-url"] };
  }
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text) || !url.hostname) return { ok: false, message: MESSAGES["not-a-url"] };
  if (url.username || url.password) return { ok: false, message: MESSAGES.credentials };
  const checked = checkDestination(url, policy);
  if (!checked.ok) return { ok: false, message: MESSAGES[checked.refusal.reason] };
  url.hash = "";
  return { ok: true, url: url.toString(), label: slackUrlLabel(url) };
}

/**
 * After DNS, when the URL is saved: the message for a host that resolves to an address the policy
 * refuses, or null. A host that does not resolve right now is not refused here; every delivery
 * checks again before it connects.
 */
export async function slackUrlRefusalAfterDns(url: string, policy: DestinationPolicy = alertDestinationPolicy()): Promise<string | null> {
  const refusal = await refusalForBaseUrl(url, policy);
  return refusal ? MESSAGES[refusal.reason] : null;
}

/**
 * Takes every form of `url` out of `text` (an error's message): the URL, its path and its path's
 * segments, which hold the webhook's token. What is left is safe for a log line or `lastError`.
 */
export function withoutSlackUrl(text: string, url: string | null): string {
  if (!url) return text;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return text.split(url).join("[the Slack URL]");
  }
  const secrets = new Set<string>([url, parsed.toString(), `${parsed.pathname}${parsed.search}`, parsed.pathname, parsed.search.slice(1)]);
  for (const segment of parsed.pathname.split("/")) if (segment.length >= 6) secrets.add(segment);
  let clean = text;
  for (const secret of [...secrets].filter((each) => each.length > 1).sort((a, b) => b.length - a.length)) {
    clean = clean.split(secret).join("[the Slack URL]");
    try {
      const decoded = decodeURIComponent(secret);
      if (decoded !== secret && decoded.length > 1) clean = clean.split(decoded).join("[the Slack URL]");
    } catch {
      // Not percent-encoded text: nothing more to strip.
    }
  }
  return clean;
}
