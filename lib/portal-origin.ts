import "server-only";
import type { EnvSource } from "@/lib/config/env-schema";
import { portalOriginEnv } from "@/lib/env";

/**
 * The portal's public origin, the one answer to "where does this portal answer?": the links it sends
 * out (invitation mail, alerts), the embedded sandbox's base URL, and the sandbox's place in the
 * outbound door's policy all use it. In order:
 * 1. NEXTAUTH_URL, the operator's word;
 * 2. on Vercel (which sets no NEXTAUTH_URL and needs none), Vercel's own variables with https://:
 *    VERCEL_URL on a preview deployment (each preview has its own address),
 *    VERCEL_PROJECT_PRODUCTION_URL otherwise, VERCEL_URL when that is all there is; not under
 *    `vercel dev` (VERCEL_ENV=development), which serves plain http on the developer's machine;
 * 3. the Host the current request came to, where there is a request;
 * 4. http://localhost:PORT, the development server.
 * Never X-Forwarded-Host or X-Forwarded-Proto: any client can send those, and the portal would then
 * mail (or call) an address of the client's choosing.
 */

/** Steps 1 and 2: the origin the configuration names, or null when it names none. */
export function configuredPortalOrigin(source?: EnvSource): string | null {
  const env = portalOriginEnv(source);
  if (env.NEXTAUTH_URL) return new URL(env.NEXTAUTH_URL).origin;
  if (env.VERCEL_ENV === "development") return null;
  const vercelHost = env.VERCEL_ENV === "preview" ? (env.VERCEL_URL ?? env.VERCEL_PROJECT_PRODUCTION_URL) : (env.VERCEL_PROJECT_PRODUCTION_URL ?? env.VERCEL_URL);
  return vercelHost ? `https://${vercelHost}` : null;
}

/**
 * The whole order, for a request whose Host is `requestHost` (null outside a request: a job, a
 * sync). A request's Host counts as http:// in development and https:// in production.
 */
export function portalOriginFor(requestHost: string | null, source?: EnvSource): string {
  const configured = configuredPortalOrigin(source);
  if (configured) return configured;
  const env = portalOriginEnv(source);
  const host = requestHost ? hostOf(requestHost) : null;
  if (host) return `${env.NODE_ENV === "production" ? "https" : "http"}://${host}`;
  return `http://localhost:${env.PORT}`;
}

/** Inside a request (a server action, a route): the origin with this request's Host as step 3. */
export async function portalOrigin(): Promise<string> {
  const configured = configuredPortalOrigin();
  if (configured) return configured;
  // Loaded here, not at the top: the outbound door's policy (lib/ems/destination.ts) imports this
  // module, and so do scripts and test set-ups that run outside Next, where next/headers has no request.
  const { headers } = await import("next/headers");
  return portalOriginFor((await headers()).get("host"));
}

/** A Host header's value as URL syntax accepts it (`name[:port]`), or null for anything else. */
function hostOf(value: string): string | null {
  if (/[/@?#\\\s]/.test(value)) return null;
  try {
    const url = new URL(`http://${value}`);
    return url.hostname ? url.host : null;
  } catch {
    return null;
  }
}
