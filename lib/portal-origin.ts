import "server-only";
import { headers } from "next/headers";
import { authEnv } from "@/lib/env";

/**
 * The portal's public origin for links sent out of it (invitation mail, alerts): NEXTAUTH_URL, else
 * what the current request came to. Only for code that runs inside a request (a server action).
 */
export async function portalOrigin(): Promise<string> {
  const { NEXTAUTH_URL } = authEnv();
  if (NEXTAUTH_URL) return NEXTAUTH_URL.replace(/\/$/, "");
  const h = await headers();
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? "localhost:3000";
  const proto = h.get("x-forwarded-proto") ?? (host.startsWith("localhost") || host.startsWith("127.0.0.1") ? "http" : "https");
  return `${proto}://${host}`;
}
