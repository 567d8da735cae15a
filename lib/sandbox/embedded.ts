import { handleFetchRequest } from "./adapters/web-fetch";
import { optionsFromEnv } from "./core/config";
import { Sandbox } from "./sandbox";

/**
 * The sandbox embedded in the portal at `/sandbox`. On unless NODE_ENV=production and
 * SANDBOX_ENABLED is not "true" (or "1"); when off, every path (admin included) is a plain 404.
 */
export const SANDBOX_MOUNT_PATH = "/sandbox";

/** Same reading of SANDBOX_ENABLED as lib/env.ts ("true" or "1"), without its other requirements. */
export function isSandboxEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NODE_ENV !== "production" || env.SANDBOX_ENABLED === "true" || env.SANDBOX_ENABLED === "1";
}

/** One instance per process: route modules may be evaluated more than once (dev reloads, bundles). */
const INSTANCE_KEY = Symbol.for("ems-portal.sandbox");
type GlobalWithSandbox = typeof globalThis & { [INSTANCE_KEY]?: Sandbox };

export function embeddedSandbox(): Sandbox {
  const holder = globalThis as GlobalWithSandbox;
  let sandbox = holder[INSTANCE_KEY];
  if (!sandbox) {
    const options = optionsFromEnv();
    if (process.env.NODE_ENV === "production" && !process.env.SANDBOX_SIGNING_SECRET) {
      console.warn("[sandbox] SANDBOX_SIGNING_SECRET is unset: using the development default. Set it in shared deployments.");
    }
    sandbox = new Sandbox(options);
    holder[INSTANCE_KEY] = sandbox;
  }
  return sandbox;
}

export async function handleEmbeddedSandboxRequest(request: Request): Promise<Response> {
  if (!isSandboxEnabled()) return new Response("Not Found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  return handleFetchRequest(embeddedSandbox(), request, SANDBOX_MOUNT_PATH);
}
