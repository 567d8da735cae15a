import "server-only";
import { authEnv, runtimeEnv } from "@/lib/env";

/**
 * The embedded sandbox's base URL: `${NEXTAUTH_URL's origin}/sandbox` when the portal's public
 * address is configured, else the Host this request came to (http://localhost:3000/sandbox in
 * development). Never X-Forwarded-Host or X-Forwarded-Proto: any client can send those, and the
 * portal would then save (and call) an address of the client's choosing.
 */
export function sandboxBaseUrl(requestHeaders: Headers): string {
  const configured = authEnv().NEXTAUTH_URL;
  if (configured) return `${new URL(configured).origin}/sandbox`;
  const host = requestHeaders.get("host") || `localhost:${runtimeEnv().PORT}`;
  return `http://${host}/sandbox`;
}
