import "server-only";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import type { EnvSource } from "@/lib/config/env-schema";
import { destinationEnv, sandboxSettings } from "@/lib/env";
import { configuredPortalOrigin } from "@/lib/portal-origin";
import { checkBaseUrl, type BaseUrlCheck } from "./contract";

/**
 * Where the EMS client may connect: the rules of the outbound door (lib/ems/outbound.ts), applied
 * when a base URL is saved (`checkEmsBaseUrl`, then `refusalForAddresses` after DNS) and again before
 * every request. docs/SECURITY.md ("Outbound requests") says why.
 *
 * A destination is one of three kinds:
 * - `listed`: its origin is in EMS_ALLOW_PRIVATE_ORIGINS (scheme, host and port exactly): the
 *   operator lets it through on purpose, over HTTP or to a private address;
 * - `sandbox`: this portal's own origin and its `/sandbox` path, while the sandbox is on;
 * - `public`: anything else, which must use HTTPS, match EMS_ALLOWED_HOSTS when that is set, and
 *   resolve only to public unicast addresses (no private, loopback, link-local, CGNAT, multicast,
 *   unspecified, broadcast or reserved address, nor an IPv6 form that embeds one).
 */

export type DestinationKind = "listed" | "sandbox" | "public";

export type RefusalReason = "http-not-allowed" | "private-address" | "host-not-allowed" | "sandbox-path-only";

export interface Refusal {
  reason: RefusalReason;
  /** Written for the person who typed the base URL. */
  message: string;
}

export interface DestinationPolicy {
  /** EMS_ALLOWED_HOSTS: host names and `*.domain` patterns; null allows any public host. */
  allowedHosts: readonly string[] | null;
  /** EMS_ALLOW_PRIVATE_ORIGINS, as URL origins. */
  privateOrigins: readonly string[];
  /** This portal's own origins while the sandbox is on (none when it is off). */
  sandboxOrigins: readonly string[];
}

/** The path the embedded sandbox is served under (app/sandbox). */
const SANDBOX_PATH = "/sandbox";

const MESSAGES = {
  httpNotAllowed: "The base URL must use HTTPS (plain http:// works only for this portal's built-in sandbox).",
  privateAddress: "That address is on a private network (or is reserved), and the portal does not connect to such addresses. Enter the public address of your EMS API.",
  sandboxPathOnly: `On this portal's own address only the built-in sandbox can be used: its base URL ends in ${SANDBOX_PATH}.`,
} as const;

/** The policy from the environment: EMS_ALLOWED_HOSTS, EMS_ALLOW_PRIVATE_ORIGINS, and the sandbox's state. */
export function destinationPolicy(source?: EnvSource): DestinationPolicy {
  const env = destinationEnv(source);
  return {
    allowedHosts: env.EMS_ALLOWED_HOSTS,
    privateOrigins: env.EMS_ALLOW_PRIVATE_ORIGINS,
    sandboxOrigins: sandboxSettings(source).enabled ? portalOrigins(env.PORT, configuredPortalOrigin(source)) : [],
  };
}

/**
 * The policy for alert webhooks (lib/alerts: a team's Slack-compatible URL): the same rules as an
 * EMS destination (HTTPS, public addresses only, after DNS as well), without EMS_ALLOWED_HOSTS, which
 * names the EMS's hosts and not a chat service's, and without the sandbox's origins. The operator's
 * EMS_ALLOW_PRIVATE_ORIGINS still applies: an origin listed there is reachable on purpose.
 */
export function alertDestinationPolicy(source?: EnvSource): DestinationPolicy {
  return { allowedHosts: null, privateOrigins: destinationEnv(source).EMS_ALLOW_PRIVATE_ORIGINS, sandboxOrigins: [] };
}

/**
 * Where this portal answers: its port on the loopback names (the embedded sandbox's base URL is
 * built from the request's Host, `http://localhost:3000/sandbox` in development) and its public
 * origin (lib/portal-origin.ts: NEXTAUTH_URL, or Vercel's address).
 */
function portalOrigins(port: number, publicOrigin: string | null): string[] {
  const origins = ["localhost", "127.0.0.1", "[::1]"].map((host) => new URL(`http://${host}:${port}`).origin);
  if (publicOrigin) origins.push(publicOrigin);
  return [...new Set(origins)];
}

/** The host of a URL without IPv6 brackets or a final dot: what a resolver and a classifier take. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "");
}

/**
 * The range an IP address belongs to: "public" for global unicast, otherwise the name of the range
 * that makes it unusable (ipaddr.js's `range()`: "private", "loopback", "linkLocal",
 * "carrierGradeNat", "uniqueLocal", "reserved", ...). IPv4-mapped (::ffff:a.b.c.d), NAT64
 * (64:ff9b::/96) and 6to4 (2002::/16) addresses are judged by the IPv4 address they carry; other
 * IPv6 addresses are public only inside 2000::/3. Anything that does not parse is "invalid".
 */
export function addressRange(address: string): string {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return "invalid";
  }
  if (parsed.kind() === "ipv4") return rangeOfIPv4(parsed as ipaddr.IPv4);
  const v6 = parsed as ipaddr.IPv6;
  const range = v6.range();
  const parts = v6.parts;
  if (range === "ipv4Mapped") return rangeOfIPv4(v6.toIPv4Address());
  // 64:ff9b::/96 carries the IPv4 address in its last 32 bits; the local-use 64:ff9b:1::/48 is private.
  if (range === "rfc6052") return parts[2] === 0 ? rangeOfIPv4(ipv4From(parts[6], parts[7])) : "rfc6052";
  if (range === "6to4") return rangeOfIPv4(ipv4From(parts[1], parts[2]));
  if (range !== "unicast") return range;
  return (parts[0] & 0xe000) === 0x2000 ? "public" : "reserved";
}

function rangeOfIPv4(address: ipaddr.IPv4): string {
  const range = address.range();
  return range === "unicast" ? "public" : range;
}

function ipv4From(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/**
 * Whether a URL's host is inside a private network as far as its text tells (no lookup): a private
 * name (localhost, a single label, .internal…) or an IP address outside the public range (10.x,
 * 169.254.169.254, ::1…). Words for a reviewer (lib/plans/delivery-warnings.ts), not the door's check.
 */
export function isInternalHost(url: URL): boolean {
  const host = bareHost(url).toLowerCase();
  return isIP(host) ? addressRange(host) !== "public" : isPrivateName(host);
}

/** Names that only ever mean a private network: localhost, single labels, and private-use domains. */
const PRIVATE_SUFFIXES = ["localhost", "local", "internal", "localdomain", "home.arpa", "test", "invalid"];

function isPrivateName(host: string): boolean {
  if (!host.includes(".")) return true;
  return PRIVATE_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`));
}

function hostAllowed(host: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => (pattern.startsWith("*.") ? host.endsWith(pattern.slice(1)) : host === pattern));
}

function isSandboxPath(pathname: string): boolean {
  return pathname === SANDBOX_PATH || pathname.startsWith(`${SANDBOX_PATH}/`);
}

export type DestinationCheck = { ok: true; kind: DestinationKind } | { ok: false; refusal: Refusal };

/**
 * What can be decided from the URL alone, before any DNS: the kind of destination, or why it is
 * refused. An IP literal (in any of the forms URL parsing normalises: `2130706433`, `0x7f000001`,
 * `0177.0.0.1`, `127.1`, `[::ffff:127.0.0.1]`) is judged here; a host name after it resolves.
 */
export function checkDestination(url: URL, policy: DestinationPolicy): DestinationCheck {
  if (url.protocol !== "https:" && url.protocol !== "http:") return refuse("http-not-allowed", MESSAGES.httpNotAllowed);
  const origin = url.origin;
  if (policy.privateOrigins.includes(origin)) return { ok: true, kind: "listed" };
  if (policy.sandboxOrigins.includes(origin)) {
    return isSandboxPath(url.pathname) ? { ok: true, kind: "sandbox" } : refuse("sandbox-path-only", MESSAGES.sandboxPathOnly);
  }
  if (url.protocol !== "https:") return refuse("http-not-allowed", MESSAGES.httpNotAllowed);
  const host = bareHost(url);
  if (isIP(host) ? addressRange(host) !== "public" : isPrivateName(host)) return refuse("private-address", MESSAGES.privateAddress);
  if (policy.allowedHosts && !hostAllowed(host, policy.allowedHosts)) {
    return refuse("host-not-allowed", `This portal connects only to the EMS API hosts its operator allows: ${policy.allowedHosts.join(", ")}.`);
  }
  return { ok: true, kind: "public" };
}

/** After DNS: a public destination must resolve to public addresses only (every one of them). */
export function refusalForAddresses(kind: DestinationKind, addresses: readonly string[]): Refusal | null {
  if (kind !== "public") return null;
  if (addresses.length > 0 && addresses.every((address) => addressRange(address) === "public")) return null;
  return { reason: "private-address", message: MESSAGES.privateAddress };
}

function refuse(reason: RefusalReason, message: string): DestinationCheck {
  return { ok: false, refusal: { reason, message } };
}

/**
 * The portal's rule for a base URL without DNS: the contract's form (lib/ems/contract.ts
 * `checkBaseUrl`) and this policy. The settings form's schema and `saveCredential` use it; saving
 * then also resolves the host (lib/ems/outbound.ts `checkBaseUrlAddresses`).
 */
export function checkEmsBaseUrl(input: string, policy: DestinationPolicy = destinationPolicy()): BaseUrlCheck {
  const checked = checkBaseUrl(input);
  if (!checked.ok) return checked;
  const destination = checkDestination(new URL(checked.baseUrl), policy);
  return destination.ok ? checked : { ok: false, message: destination.refusal.message };
}

/**
 * Where the portal may send mail (lib/mail/send.ts, the SMTP side of the door): the mail servers the
 * operator named, as `smtp://host:port` / `smtps://host:port`. SMTP_URL is set by the operator only
 * (never by a person in the portal), so its server is listed, like an origin in
 * EMS_ALLOW_PRIVATE_ORIGINS: a relay on a private network (localhost, a cluster's service) is
 * common and fine. Any other mail server would be judged as a public destination.
 */
export interface MailDestinationPolicy {
  listedServers: readonly string[];
}

const SMTP_DEFAULT_PORTS: Record<string, number> = { "smtp:": 587, "smtps:": 465 };

/** The policy for the mail server SMTP_URL names (none when it is unset). */
export function mailDestinationPolicy(smtpUrl: string | undefined): MailDestinationPolicy {
  return { listedServers: smtpUrl ? [mailServerKey(new URL(smtpUrl))] : [] };
}

/** `smtp://host:port` with nodemailer's default port (587, or 465 for smtps) written out. */
export function mailServerKey(url: URL): string {
  return `${url.protocol}//${url.hostname.toLowerCase()}:${url.port || SMTP_DEFAULT_PORTS[url.protocol] || ""}`;
}

/**
 * A mail server's URL by the same classifier as every other destination: listed (the operator's
 * SMTP_URL), or public (a public name or address, its addresses checked after DNS), or refused.
 */
export function checkMailDestination(url: URL, policy: MailDestinationPolicy): DestinationCheck {
  if (!(url.protocol in SMTP_DEFAULT_PORTS)) return refuse("host-not-allowed", "Mail goes only to an smtp:// or smtps:// server.");
  if (policy.listedServers.includes(mailServerKey(url))) return { ok: true, kind: "listed" };
  const host = bareHost(url);
  if (isIP(host) ? addressRange(host) !== "public" : isPrivateName(host)) return refuse("private-address", MESSAGES.privateAddress);
  return { ok: true, kind: "public" };
}
