import "server-only";
import { portalOriginFor } from "@/lib/portal-origin";

/**
 * The embedded sandbox's base URL: the portal's public origin (lib/portal-origin.ts: NEXTAUTH_URL,
 * Vercel's address, else the Host this request came to; http://localhost:3000/sandbox in
 * development) and `/sandbox`.
 */
export function sandboxBaseUrl(requestHeaders: Headers): string {
  return `${portalOriginFor(requestHeaders.get("host"))}/sandbox`;
}
