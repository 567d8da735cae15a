/**
 * Why the EMS could not be reached, named from the transport's error, in words that say what is
 * wrong and what to do: the one place the portal turns a DNS failure, a refused connection, a
 * certificate problem, a timeout or a 5xx into a message (UpstreamUnavailableError carries it to the
 * listing pages, the detail pages and the credentials' connection test alike).
 *
 * Not server-only: plain data and words, no secret and no connection.
 */

export type UnreachableReason = "dns" | "refused" | "tls" | "timeout" | "server" | "network";

export interface Unreachable {
  reason: UnreachableReason;
  /** The host as the base URL names it (no port, no path), or null when unknown. */
  host: string | null;
  /** One sentence: what went wrong, then what to do. */
  message: string;
  /** A short heading for the page's notice. */
  title: string;
  /** Whether the fix is in the saved credentials (a wrong base URL) rather than waiting. */
  fixInSettings: boolean;
}

const DNS_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_NONAME", "EAI_NODATA", "EAI_FAIL"]);
const REFUSED_CODES = new Set(["ECONNREFUSED"]);
const TIMEOUT_CODES = new Set(["ETIMEDOUT", "ESOCKETTIMEDOUT", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT"]);
/** Node's certificate and TLS error codes (tls, OpenSSL's X509 verify results). */
const TLS_CODES = new Set([
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "CERT_REVOKED",
  "CERT_UNTRUSTED",
  "CERT_REJECTED",
  "HOSTNAME_MISMATCH",
  "EPROTO",
  "ERR_SSL_WRONG_VERSION_NUMBER",
]);

/** The error code of a network error (its own `code`, or its cause's, as fetch and undici nest them). */
export function networkErrorCode(error: unknown): string | null {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 4; current = (current as { cause?: unknown }).cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && code) return code;
  }
  return null;
}

/** The host of a URL as a person typed it (no port, no brackets), or null. */
export function hostOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, "") || null;
  } catch {
    return null;
  }
}

/**
 * Names why a request got no usable answer. `error`: what the connection threw (none for a 5xx);
 * `timedOut`: the portal's own timer ended the wait; `status`: the 5xx the server answered with.
 */
export function classifyUnreachable(input: { error?: unknown; host?: string | null; timedOut?: boolean; status?: number; timeoutSeconds?: number }): Unreachable {
  const host = input.host ?? null;
  const code = input.error === undefined ? null : networkErrorCode(input.error);
  let reason: UnreachableReason;
  if (input.timedOut || (code && TIMEOUT_CODES.has(code))) reason = "timeout";
  else if (input.status !== undefined && input.status >= 500) reason = "server";
  else if (code && DNS_CODES.has(code)) reason = "dns";
  else if (code && REFUSED_CODES.has(code)) reason = "refused";
  else if (code && (TLS_CODES.has(code) || code.startsWith("ERR_TLS_") || code.startsWith("ERR_SSL_") || code.includes("CERT"))) reason = "tls";
  else reason = "network";
  return describeUnreachable(reason, host, { status: input.status, code, timeoutSeconds: input.timeoutSeconds });
}

/** The words for a reason (also used to rebuild a notice from a stored reason). */
export function describeUnreachable(
  reason: UnreachableReason,
  host: string | null,
  details: { status?: number; code?: string | null; timeoutSeconds?: number } = {},
): Unreachable {
  const where = host ?? "the EMS";
  const within = details.timeoutSeconds ? ` within ${details.timeoutSeconds} s` : " in time";
  switch (reason) {
    case "dns":
      return {
        reason,
        host,
        title: "The EMS's address could not be found",
        message: `Couldn't resolve ${where}: check the base URL.`,
        fixInSettings: true,
      };
    case "refused":
      return {
        reason,
        host,
        title: "The EMS refused the connection",
        message: `${where} refused the connection: check the base URL and its port, or whether the EMS is running.`,
        fixInSettings: true,
      };
    case "tls":
      return {
        reason,
        host,
        title: "The EMS's certificate was not accepted",
        message: `${where}'s TLS certificate could not be verified${details.code ? ` (${details.code})` : ""}: check the base URL's host name, or ask the EMS's provider to fix the certificate.`,
        fixInSettings: true,
      };
    case "timeout":
      return {
        reason,
        host,
        title: "The EMS did not answer",
        message: `${where} did not answer${within}: it may be slow or down. Try again in a moment, or check the base URL.`,
        fixInSettings: false,
      };
    case "server":
      return {
        reason,
        host,
        title: "The EMS had an error",
        message: `${where} answered with a server error${details.status ? ` (${details.status})` : ""}: try again in a moment; if it lasts, ask the EMS's provider.`,
        fixInSettings: false,
      };
    case "network":
      return {
        reason,
        host,
        title: "The connection to the EMS failed",
        message: `The connection to ${where} failed${details.code ? ` (${details.code})` : ""}: try again in a moment, or check the base URL.`,
        fixInSettings: false,
      };
  }
}
