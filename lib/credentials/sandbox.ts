import "server-only";
import { runtimeEnv } from "@/lib/env";

/**
 * The embedded sandbox's base URL as this request reached the portal (`${origin}/sandbox`,
 * http://localhost:3000/sandbox in development): the portal then calls itself over loopback.
 */
export function sandboxBaseUrl(requestHeaders: Headers): string {
  const host = requestHeaders.get("x-forwarded-host")?.split(",")[0]?.trim() || requestHeaders.get("host") || `localhost:${runtimeEnv().PORT}`;
  const forwardedProto = requestHeaders.get("x-forwarded-proto")?.split(",")[0]?.trim();
  const proto = forwardedProto === "https" || forwardedProto === "http" ? forwardedProto : "http";
  return `${proto}://${host}/sandbox`;
}
