import "server-only";
import { createHmac } from "node:crypto";
import { fingerprintSecret } from "@/lib/env";
import { checkBaseUrl } from "./contract";
import { InvalidBaseUrlError } from "./errors";

/** One member's EMS API credential, decrypted, as the client needs it. */
export type EmsCredential = {
  /** `credentialFingerprint(baseUrl, consumerKey, consumerSecret)`: names the token cache row. */
  fingerprint: string;
  baseUrl: string;
  consumerKey: string;
  consumerSecret: string;
};

/**
 * The base URL in one canonical form (`scheme://host[:port][/prefix]`, no trailing slash), by the
 * contract's rule (lib/ems/contract.ts `checkBaseUrl`, docs/ems-api.md §1); throws InvalidBaseUrlError.
 */
export function normalizeBaseUrl(raw: string): string {
  const checked = checkBaseUrl(raw);
  if (!checked.ok) throw new InvalidBaseUrlError(checked.message);
  return checked.baseUrl;
}

/**
 * Percent-encodes every UTF-8 byte outside `A-Z a-z 0-9 - _ .` (space becomes `%20`): the
 * contract's encoding rule for the key and the secret (docs/ems-api.md §2), accepted by RFC 1738 and
 * RFC 3986 servers alike. A literal `+` is therefore sent as `%2B`.
 */
export function encodeCredentialPart(value: string): string {
  let encoded = "";
  for (const byte of Buffer.from(value, "utf8")) {
    const unreserved =
      (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x30 && byte <= 0x39) || byte === 0x2d || byte === 0x5f || byte === 0x2e;
    encoded += unreserved ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return encoded;
}

/** The value of the token request's `Authorization` header: `Basic base64(enc(key):enc(secret))`. */
export function basicAuthorization(consumerKey: string, consumerSecret: string): string {
  const joined = `${encodeCredentialPart(consumerKey)}:${encodeCredentialPart(consumerSecret)}`;
  return `Basic ${Buffer.from(joined, "utf8").toString("base64")}`;
}

/**
 * A stable, non-reversible name for a credential (HMAC-SHA256 keyed by a server secret,
 * EMS_FINGERPRINT_SECRET or else NEXTAUTH_SECRET, hex):
 * the same base URL, key and secret give the same fingerprint on every instance, so they share
 * one token; a changed secret gives a new fingerprint, so an old token is never reused for it.
 */
export function credentialFingerprint(baseUrl: string, consumerKey: string, consumerSecret: string): string {
  const key = createHmac("sha256", fingerprintSecret()).update("ems-portal/credential-fingerprint/v1").digest();
  return createHmac("sha256", key)
    .update(JSON.stringify([normalizeBaseUrl(baseUrl), consumerKey, consumerSecret]))
    .digest("hex");
}
