import { handleFetchRequest } from "./adapters/web-fetch";
import type { SandboxOptions } from "./core/config";
import { Sandbox } from "./sandbox";

/**
 * The sandbox embedded in the portal at `/sandbox`. The portal decides whether it is on and with
 * which options (lib/env.ts `sandboxSettings()`, read by app/sandbox/[...path]/route.ts); when off,
 * every path (admin included) is a plain 404.
 */
export const SANDBOX_MOUNT_PATH = "/sandbox";

export interface EmbeddedSandboxSettings {
  enabled: boolean;
  options: SandboxOptions;
}

/** One instance per process: route modules may be evaluated more than once (dev reloads, bundles). */
const INSTANCE_KEY = Symbol.for("ems-portal.sandbox");
type GlobalWithSandbox = typeof globalThis & { [INSTANCE_KEY]?: Sandbox };

/** The process's embedded sandbox, made with `options` on first use. */
export function embeddedSandbox(options: SandboxOptions): Sandbox {
  const holder = globalThis as GlobalWithSandbox;
  return (holder[INSTANCE_KEY] ??= new Sandbox(options));
}

export async function handleEmbeddedSandboxRequest(request: Request, settings: EmbeddedSandboxSettings): Promise<Response> {
  if (!settings.enabled) return new Response("Not Found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  return handleFetchRequest(embeddedSandbox(settings.options), request, SANDBOX_MOUNT_PATH);
}
