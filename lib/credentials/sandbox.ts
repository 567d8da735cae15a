import "server-only";
import { headers } from "next/headers";
import type { Actor } from "@/lib/access/actor";
import type { RequestContext } from "@/lib/access/guards";
import { checkEmsBaseUrl } from "@/lib/ems/destination";
import { sandboxSettings } from "@/lib/env";
import { SafeError } from "@/lib/errors";
import { portalOriginFor } from "@/lib/portal-origin";
import { DEMO_CREDENTIALS, OTHER_CREDENTIALS } from "@/lib/sandbox/demo-credentials";
import { saveCredential, testCredential, type ConnectionTestResult } from "./store";

/** The sandbox's built-in accounts: the demo one, and a second to prove isolation. */
export type SandboxAccount = "demo" | "other";

/**
 * The embedded sandbox's base URL: the portal's public origin (lib/portal-origin.ts: NEXTAUTH_URL,
 * Vercel's address, else the Host this request came to; http://localhost:3000/sandbox in
 * development) and `/sandbox`.
 */
export function sandboxBaseUrl(requestHeaders: Headers): string {
  return `${portalOriginFor(requestHeaders.get("host"))}/sandbox`;
}

/**
 * One click in Settings: the embedded sandbox's base URL with one of its demo accounts, filled in
 * on the server (so not even the demo secret travels to the browser), saved as the actor's own
 * credential and tested. The address is built from the Host of the request being handled: reached
 * through another name, it is not this portal's own origin, and it is refused before anything is saved.
 */
export async function applySandboxCredentials(actor: Actor, account: SandboxAccount, context: RequestContext = {}): Promise<ConnectionTestResult> {
  if (!sandboxSettings().enabled) throw new SafeError("The sandbox is turned off on this server.", "sandbox_off");
  const { consumerKey, consumerSecret } = account === "other" ? OTHER_CREDENTIALS : DEMO_CREDENTIALS;
  const baseUrl = sandboxBaseUrl(await headers());
  if (!checkEmsBaseUrl(baseUrl).ok) {
    throw new SafeError(
      "The built-in sandbox can only be used through this portal's own address. Open the portal at the address it is configured with and try again.",
      "sandbox_unreachable",
    );
  }
  await saveCredential(actor, { baseUrl, consumerKey, consumerSecret }, context);
  return testCredential(actor, context);
}

/** What the person is told once the sandbox's credentials are saved: the test's outcome (a failure as a SafeError). */
export function sandboxAppliedMessage(result: ConnectionTestResult): string {
  if (!result.ok) throw new SafeError(`Sandbox credentials saved, but the test failed: ${result.message}`, "test_failed");
  return `Sandbox credentials saved and tested: the account sees ${result.webhookGroupCount} webhook groups.`;
}
