import "server-only";
import { createHmac } from "node:crypto";
import { fingerprintSecret } from "@/lib/env";
import { normalizeBaseUrl } from "@/lib/ems";

/**
 * Which EMS account a credential reads: a tracker is one per account per team, and an account is
 * its API's base URL and consumer key (the secret is rotated now and then; the account stays).
 * HMAC-SHA256 keyed by the server's fingerprint secret, like credential fingerprints, so the
 * database never holds the key itself.
 */
export function accountKey(baseUrl: string, consumerKey: string): string {
  const key = createHmac("sha256", fingerprintSecret()).update("ems-portal/account-key/v1").digest();
  return createHmac("sha256", key)
    .update(JSON.stringify([normalizeBaseUrl(baseUrl), consumerKey]))
    .digest("hex");
}

/** What Settings shows of the account: its API's host and path, and the key's last four characters. */
export function accountLabel(baseUrl: string, consumerKey: string): string {
  const url = new URL(normalizeBaseUrl(baseUrl));
  const place = `${url.host}${url.pathname === "/" ? "" : url.pathname}`;
  return `${place} · key …${consumerKey.slice(-4)}`;
}
