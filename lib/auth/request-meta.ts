import "server-only";
import { isIP } from "node:net";
import { headers } from "next/headers";
import { clientAddressEnv } from "@/lib/env";

/**
 * The client's address: the one rule for the sign-in and sign-up throttles, audit records and the
 * session list. A client can send any X-Forwarded-For it likes, so only entries written by
 * machines we trust count, and those are the ones on the right: each proxy appends the address
 * it received the connection from.
 *
 * What Next.js 16 gives: `next start` and the standalone server fill in `x-forwarded-for` with the
 * socket's address ONLY when the request has none (`??=` in next/dist/server/base-server.js,
 * handleRequestImpl); a client-sent value is kept as it came, and the socket's address is then
 * lost. So, on its own, Next offers no trustworthy entry at all when it is the edge. The portal
 * therefore appends the socket's address itself, as a proxy hop would (lib/auth/forwarded-for.ts,
 * installed by instrumentation.ts): the rightmost entry is always the connection's peer, and
 *
 * - TRUSTED_PROXY_COUNT=0 (default; the portal is the edge): the rightmost entry, the peer;
 * - TRUSTED_PROXY_COUNT=N: the entry N places left of it, the address the outermost of our N
 *   proxies saw (entries further left are whatever the client sent). With fewer entries than
 *   that, every entry came from our own hops, and the leftmost is taken.
 * - On Vercel (VERCEL=1): Vercel's own `x-vercel-forwarded-for`, else `x-real-ip`, which its edge
 *   sets to the client's address and clients cannot set.
 *
 * Anything that is not an IP address becomes "unknown" (one shared bucket, so a client cannot mint
 * keys). IPv4-mapped IPv6 addresses are written as IPv4, IPv6 in its canonical lower-case form.
 */

export const UNKNOWN_ADDRESS = "unknown";

export interface ClientAddressSettings {
  /** Proxies in front of the portal that append to X-Forwarded-For (TRUSTED_PROXY_COUNT). */
  trustedProxyCount: number;
  /** On Vercel (VERCEL=1): read Vercel's headers. */
  onVercel: boolean;
}

export function clientAddressSettings(): ClientAddressSettings {
  const env = clientAddressEnv();
  return { trustedProxyCount: env.TRUSTED_PROXY_COUNT, onVercel: env.VERCEL };
}

type HeaderGetter = (name: string) => string | null | undefined;

/** The client's address from a request's headers (see above). */
export function clientIpFrom(getHeader: HeaderGetter, settings: ClientAddressSettings = clientAddressSettings()): string {
  if (settings.onVercel) {
    const vercel = entriesOf(getHeader("x-vercel-forwarded-for"))[0] ?? entriesOf(getHeader("x-real-ip"))[0];
    return normalizeAddress(vercel) ?? UNKNOWN_ADDRESS;
  }
  const entries = entriesOf(getHeader("x-forwarded-for"));
  if (entries.length === 0) return UNKNOWN_ADDRESS;
  const index = Math.max(0, entries.length - 1 - settings.trustedProxyCount);
  return normalizeAddress(entries[index]) ?? UNKNOWN_ADDRESS;
}

/** The client's address of the request being handled (pages, server actions, route handlers). */
export async function clientIp(): Promise<string> {
  const h = await headers();
  return clientIpFrom((name) => h.get(name));
}

export async function userAgent(): Promise<string | null> {
  return (await headers()).get("user-agent");
}

function entriesOf(value: string | null | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
}

/**
 * An IP address in one spelling, or null: without brackets or a port (`[2001:db8::1]:443`,
 * `192.0.2.1:5060`, as some load balancers write them), IPv4-mapped IPv6 as IPv4.
 */
export function normalizeAddress(value: string | null | undefined): string | null {
  if (!value) return null;
  let address = value.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(":"));
  address = address.replace(/%[\w.-]*$/, ""); // an IPv6 zone ("fe80::1%eth0") names a local interface
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) address = mapped[1]!;
  const version = isIP(address);
  if (version === 4) return address;
  if (version === 6) return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  return null;
}
