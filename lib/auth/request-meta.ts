import "server-only";
import { headers } from "next/headers";

/**
 * The client's address as the nearest proxy reported it. Vercel and `next start` set
 * X-Forwarded-For; behind your own proxy make sure it overwrites (not appends to) that header.
 */
export function clientIpFrom(getHeader: (name: string) => string | null | undefined): string {
  const forwarded = getHeader("x-forwarded-for");
  const first = forwarded?.split(",")[0]?.trim();
  return first || getHeader("x-real-ip")?.trim() || "unknown";
}

export async function clientIp(): Promise<string> {
  const h = await headers();
  return clientIpFrom((name) => h.get(name));
}

export async function userAgent(): Promise<string | null> {
  return (await headers()).get("user-agent");
}
